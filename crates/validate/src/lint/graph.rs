//! Cycles in a graph of named types, in time and memory linear in its nodes and edges.
//!
//! `ref-cycle` and `no-finite-value` both look for the types that reach themselves. They used to
//! work out, for every type, the set of types it reaches: a table of n × n entries, which took
//! 1.6 GB and seconds at 40,000 types. Strongly connected components (Tarjan's algorithm, here
//! without recursion: a contract's chain of refs may be as long as it has types) give the same
//! answer in one pass.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// The strongly connected components of `edges` (node `i`'s successors are `edges[i]`) that hold
/// a cycle: more than one node, or one node with an edge to itself. Each lists its nodes in
/// ascending order; the components come in the order of their first node.
pub(crate) fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut components = Vec::new();
    // The depth-first search's own stack: a node and how many of its successors it has visited.
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root, 0));
        while let Some(&(v, i)) = calls.last() {
            if i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(i) {
                if let Some(top) = calls.last_mut() {
                    top.1 += 1;
                }
                if index[w] == UNSEEN {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 || edges[v].contains(&v) {
                    members.sort_unstable();
                    components.push(members);
                }
            }
        }
    }
    components.sort_unstable_by_key(|members| members[0]);
    components
}

/// The shortest path from `first` back to itself, both ends included, through the nodes of
/// `component` (the cycle `first` is in, as [`cycles`] gives it) only; `[first, first]` if there
/// is none. Its cost is that of the component, not of the whole graph.
pub(crate) fn shortest_cycle(
    first: usize,
    component: &[usize],
    edges: &[Vec<usize>],
) -> Vec<usize> {
    let inside = |node: usize| component.binary_search(&node).is_ok();
    let mut parent: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([first]);
    while let Some(at) = queue.pop_front() {
        for &next in edges[at].iter().filter(|&&next| inside(next)) {
            if next == first {
                let mut chain = Vec::new();
                let mut back = at;
                while back != first {
                    chain.push(back);
                    back = parent[&back];
                }
                chain.reverse();
                let mut path = vec![first];
                path.extend(chain);
                path.push(first);
                return path;
            }
            if let Entry::Vacant(slot) = parent.entry(next) {
                slot.insert(at);
                queue.push_back(next);
            }
        }
    }
    vec![first, first]
}

#[cfg(test)]
mod tests {
    use super::{cycles, shortest_cycle};

    #[test]
    fn components_with_a_cycle_are_found_in_order_of_their_first_node() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 5 (no cycle), 6 → 7 → 6, 5 → 0.
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![5], vec![0], vec![7], vec![6]];
        assert_eq!(cycles(&edges), vec![vec![0, 1, 2], vec![3], vec![6, 7]]);
    }

    #[test]
    fn the_shortest_way_round_is_taken() {
        // 0 → 1 → 2 → 0 and 0 → 2 → 0.
        let edges = vec![vec![1, 2], vec![2], vec![0]];
        let all = cycles(&edges);
        assert_eq!(all, vec![vec![0, 1, 2]]);
        assert_eq!(shortest_cycle(0, &all[0], &edges), vec![0, 2, 0]);
    }

    #[test]
    fn a_chain_as_long_as_the_graph_needs_no_recursion() {
        let n = 200_000;
        let edges: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let all = cycles(&edges);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].len(), n);
        assert_eq!(shortest_cycle(0, &all[0], &edges).len(), n + 1);
    }
}
