import type { Node } from 'web-tree-sitter'

/**
 * What `at` finds at each named node of a bash tree, in the order the nodes are written (a node
 * before its children), nodes where it finds nothing left out. The judge's passes over a whole
 * line (changed variables, arithmetic, constructs it cannot vouch for) each go through it.
 */
export function findingsInTree(root: Node, at: (node: Node) => string | null): string[] {
  const findings: string[] = []
  const stack: Node[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!node) continue
    const finding = at(node)
    if (finding) findings.push(finding)
    // Pushed last to first, so they are visited in the order they are written.
    for (const child of [...node.namedChildren].reverse()) if (child) stack.push(child)
  }
  return findings
}
