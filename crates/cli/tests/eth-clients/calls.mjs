// The typical calls of one Ethereum client library against a JSON-RPC URL, one JSON line per
// call on stdout: {"call": NAME, "ok": true} or {"call": NAME, "ok": false, "error": MESSAGE}.
// Run by crates/cli/tests/it/serve_eth_clients.rs: `node calls.mjs ethers|viem URL`.
// The call names are the same for every library (web3_calls.py too), so docs/interop.md can
// list a failure by library and name.

const [library, url] = process.argv.slice(2);

const ACCOUNT = "0xfe3b557e8fb62b89f4916b721be55ceb828dbd73";
const TOKEN = "0x6b175474e89094c44da98b954eedeac495271d0f";
const BLOCK_HASH = "0x2dd5d7a6bb2a5c47a2a0c9d0a1c2c0d3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6";
const TX_HASH = "0x0b8a3c7e1f2d4a6b8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c";
const BLOCK = 0x1234567n;
// balanceOf(ACCOUNT), a typical read call.
const CALLDATA = "0x70a08231000000000000000000000000fe3b557e8fb62b89f4916b721be55ceb828dbd73";
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

function message(error) {
  const text = error && (error.shortMessage || error.message) ? (error.shortMessage || error.message) : String(error);
  return text.split("\n")[0].slice(0, 400);
}

async function run(calls) {
  for (const [name, call] of calls) {
    try {
      const value = await call();
      if (value === null || value === undefined) {
        console.log(JSON.stringify({ call: name, ok: false, error: "the library gave no value (null)" }));
      } else {
        console.log(JSON.stringify({ call: name, ok: true }));
      }
    } catch (error) {
      console.log(JSON.stringify({ call: name, ok: false, error: message(error) }));
    }
  }
}

async function ethersCalls() {
  const { JsonRpcProvider } = await import("ethers");
  // A plain provider as its documentation starts one: the URL, nothing else.
  const provider = new JsonRpcProvider(url);
  try {
    await run([
      ["chainId", () => provider.getNetwork().then((n) => n.chainId)],
      ["blockNumber", () => provider.getBlockNumber()],
      ["balance", () => provider.getBalance(ACCOUNT)],
      ["nonce", () => provider.getTransactionCount(ACCOUNT)],
      ["code", () => provider.getCode(TOKEN)],
      ["blockByNumber", () => provider.getBlock(BLOCK, false)],
      ["blockByNumberWithTransactions", () => provider.getBlock(BLOCK, true)],
      ["latestBlock", () => provider.getBlock("latest")],
      ["blockByHash", () => provider.getBlock(BLOCK_HASH, false)],
      ["blockByHashWithTransactions", () => provider.getBlock(BLOCK_HASH, true)],
      ["transaction", () => provider.getTransaction(TX_HASH)],
      ["receipt", () => provider.getTransactionReceipt(TX_HASH)],
      ["call", () => provider.call({ to: TOKEN, data: CALLDATA })],
      ["estimateGas", () => provider.estimateGas({ from: ACCOUNT, to: TOKEN, value: 1n })],
      ["feeData", () => provider.getFeeData()],
      ["logs", () => provider.getLogs({ address: TOKEN, fromBlock: BLOCK, toBlock: BLOCK + 10n, topics: [TRANSFER_TOPIC] })],
    ]);
  } finally {
    provider.destroy();
  }
}

async function viemCalls() {
  const { createPublicClient, http } = await import("viem");
  // A public client as its documentation starts one (no chain: the fake is no known chain).
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
  await run([
    ["chainId", () => client.getChainId()],
    ["blockNumber", () => client.getBlockNumber()],
    ["balance", () => client.getBalance({ address: ACCOUNT })],
    ["nonce", () => client.getTransactionCount({ address: ACCOUNT })],
    ["code", () => client.getCode({ address: TOKEN }).then((code) => code ?? "0x")],
    ["blockByNumber", () => client.getBlock({ blockNumber: BLOCK })],
    ["blockByNumberWithTransactions", () => client.getBlock({ blockNumber: BLOCK, includeTransactions: true })],
    ["latestBlock", () => client.getBlock()],
    ["blockByHash", () => client.getBlock({ blockHash: BLOCK_HASH })],
    ["blockByHashWithTransactions", () => client.getBlock({ blockHash: BLOCK_HASH, includeTransactions: true })],
    ["transaction", () => client.getTransaction({ hash: TX_HASH })],
    ["receipt", () => client.getTransactionReceipt({ hash: TX_HASH })],
    ["call", () => client.call({ to: TOKEN, data: CALLDATA }).then((r) => r.data ?? "0x")],
    ["estimateGas", () => client.estimateGas({ account: ACCOUNT, to: TOKEN, value: 1n })],
    ["feeData", () => client.estimateFeesPerGas()],
    ["logs", () => client.getLogs({ address: TOKEN, fromBlock: BLOCK, toBlock: BLOCK + 10n })],
  ]);
}

if (library === "ethers") await ethersCalls();
else if (library === "viem") await viemCalls();
else {
  console.error(`usage: node calls.mjs ethers|viem URL (not ${library})`);
  process.exit(2);
}
