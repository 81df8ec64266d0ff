"""web3.py's typical calls against a JSON-RPC URL, one JSON line per call on stdout, as
calls.mjs writes them for ethers and viem (the same call names). Run by
crates/cli/tests/it/serve_eth_clients.rs: `python web3_calls.py URL`."""

import json
import sys

from web3 import Web3

URL = sys.argv[1]
ACCOUNT = Web3.to_checksum_address("0xfe3b557e8fb62b89f4916b721be55ceb828dbd73")
TOKEN = Web3.to_checksum_address("0x6b175474e89094c44da98b954eedeac495271d0f")
BLOCK_HASH = "0x2dd5d7a6bb2a5c47a2a0c9d0a1c2c0d3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6"
TX_HASH = "0x0b8a3c7e1f2d4a6b8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c"
BLOCK = 0x1234567
CALLDATA = "0x70a08231000000000000000000000000fe3b557e8fb62b89f4916b721be55ceb828dbd73"
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

# A provider as web3.py's documentation starts one: the URL, nothing else.
w3 = Web3(Web3.HTTPProvider(URL))
eth = w3.eth


def fee_data():
    return (eth.gas_price, eth.max_priority_fee)


CALLS = [
    ("chainId", lambda: eth.chain_id),
    ("blockNumber", lambda: eth.block_number),
    ("balance", lambda: eth.get_balance(ACCOUNT)),
    ("nonce", lambda: eth.get_transaction_count(ACCOUNT)),
    ("code", lambda: eth.get_code(TOKEN)),
    ("blockByNumber", lambda: eth.get_block(BLOCK, False)),
    ("blockByNumberWithTransactions", lambda: eth.get_block(BLOCK, True)),
    ("latestBlock", lambda: eth.get_block("latest")),
    ("blockByHash", lambda: eth.get_block(BLOCK_HASH, False)),
    ("blockByHashWithTransactions", lambda: eth.get_block(BLOCK_HASH, True)),
    ("transaction", lambda: eth.get_transaction(TX_HASH)),
    ("receipt", lambda: eth.get_transaction_receipt(TX_HASH)),
    ("call", lambda: eth.call({"to": TOKEN, "data": CALLDATA})),
    ("estimateGas", lambda: eth.estimate_gas({"from": ACCOUNT, "to": TOKEN, "value": 1})),
    ("feeData", fee_data),
    (
        "logs",
        lambda: eth.get_logs(
            {"address": TOKEN, "fromBlock": BLOCK, "toBlock": BLOCK + 10, "topics": [TRANSFER_TOPIC]}
        ),
    ),
]

for name, call in CALLS:
    try:
        value = call()
        if value is None:
            print(json.dumps({"call": name, "ok": False, "error": "the library gave no value (None)"}))
        else:
            print(json.dumps({"call": name, "ok": True}))
    except Exception as error:  # every failure is reported, by its type and first line
        text = f"{type(error).__name__}: {error}".splitlines()[0][:400]
        print(json.dumps({"call": name, "ok": False, "error": text}))
    sys.stdout.flush()
