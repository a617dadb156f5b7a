import ts from "typescript";

/** Calls that reach the chain through viem: an `as never` in their arguments switches off the ABI's types. */
const CHAIN_CALLS = new Set([
  "readContract",
  "multicall",
  "simulateContract",
  "writeContract",
  "estimateContractGas",
  "encodeFunctionData",
  "decodeFunctionResult",
  "decodeEventLog",
  "getContractEvents",
  "watchContractEvent",
  "sendTransaction",
  "call",
  "request",
  "send",
]);
/** Reads whose answer viem types from the ABI: a cast of it hides a wrong function name or a changed return. */
const TYPED_READS = new Set(["readContract", "multicall"]);

/** The names domain/abis.ts exports (e.g. loanNoteAbi), read from its source. */
export function generatedAbiNames(abisSource: string): Set<string> {
  return new Set([...abisSource.matchAll(/export const (\w+)\s*=/g)].map((match) => match[1]));
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAwaitExpression(current) || ts.isNonNullExpression(current)) current = current.expression;
  return current;
}

function mentions(node: ts.Node, names: Set<string>): boolean {
  return (ts.isIdentifier(node) && names.has(node.text)) || (ts.forEachChild(node, (child) => mentions(child, names) || undefined) ?? false);
}

/** Whether node reads with a generated ABI, or only passes such a read on (e.g. `read(client.readContract(…))`). */
function isTypedRead(node: ts.Expression, abiNames: Set<string>): boolean {
  const inner = unwrap(node);
  if (!ts.isCallExpression(inner)) return false;
  const name = calleeName(inner);
  if (name && TYPED_READS.has(name)) return inner.arguments.some((argument) => mentions(argument, abiNames));
  return inner.arguments.length === 1 && isTypedRead(inner.arguments[0], abiNames);
}

function insideChainCall(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isCallExpression(parent) && CHAIN_CALLS.has(calleeName(parent) ?? "")) return true;
    if (ts.isFunctionLike(parent) || ts.isBlock(parent)) return false;
  }
  return false;
}

/**
 * Where a file switches the generated ABIs' types off: a generated ABI cast (or anything cast to
 * `Abi`), an `as never` inside a chain call, or a cast of what readContract/multicall answer with a generated ABI.
 * Each finding is "path:line: what".
 */
export function abiCastFindings(path: string, source: string, abiNames: Set<string>): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) => found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const expression = unwrap(node.expression);
      const type = node.type.getText(file);
      if (ts.isIdentifier(expression) && abiNames.has(expression.text) && type !== "const") report(node, `${expression.text} cast to ${type}`);
      else if (type === "Abi") report(node, `${expression.getText(file)} cast to Abi`);
      else if (node.type.kind === ts.SyntaxKind.NeverKeyword && insideChainCall(node)) report(node, "`as never` in a chain call");
      else if (isTypedRead(node.expression, abiNames)) report(node, `the answer of a typed read cast to ${type}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
