// Branch points of a Solidity source, found in solc's parse-only AST, and the probe ids that record
// their outcomes. The coverage build (probes.ts) and the reporter (branches.ts) both derive everything
// from here, so an outcome's id is the same on both sides without any file passed between them.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";

const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };

export type SiteKind = "if" | "while" | "for" | "do-while" | "ternary" | "&&" | "||" | "require" | "assert" | "try";

/** Byte range [start, end) in the UTF-8 source, as solc reports it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BranchSite {
  kind: SiteKind;
  /** The range the probe wraps: the condition (or the left operand of && / ||). Unused for `try`. */
  condition: ByteRange;
  /** For `try`: the block of each clause, the success block first, then every catch clause. */
  clauses: ByteRange[];
  /** 1-based line of the condition (of the `try` keyword for try/catch). */
  line: number;
  /** Source text of the condition, for messages and for checking both parses line up. */
  text: string;
  outcomes: string[];
}

/** High bits of every probe id, so probe hits never collide with EDR's hashed statement tags. */
const PROBE_MARKER = 0x4c4d42n; // "LMB"

interface AstNode {
  nodeType: string;
  src: string;
  [key: string]: unknown;
}

export function parseAst(sourceName: string, content: string): AstNode {
  const input = {
    language: "Solidity",
    sources: { [sourceName]: { content } },
    settings: { stopAfter: "parsing", outputSelection: { "*": { "": ["ast"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    sources?: Record<string, { ast: AstNode }>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0 || !output.sources?.[sourceName]) {
    throw new Error(`cannot parse ${sourceName}:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  return output.sources[sourceName].ast;
}

function rangeOf(node: AstNode): ByteRange {
  const [start, length] = node.src.split(":").map(Number);
  return { start, end: start + length };
}

function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as AstNode).nodeType === "string";
}

function children(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out;
}

/**
 * Every branch point inside function and modifier bodies, in source order (outer before inner at the
 * same start). State-variable initialisers are left out: a probe call cannot appear in a constant.
 */
export function findSites(sourceName: string, content: string): BranchSite[] {
  const bytes = Buffer.from(content, "utf8");
  const lineStarts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const textOf = (r: ByteRange) => bytes.subarray(r.start, r.end).toString("utf8").replace(/\s+/g, " ");

  const sites: BranchSite[] = [];
  const add = (kind: SiteKind, conditionNode: AstNode, outcomes: string[]) => {
    const condition = rangeOf(conditionNode);
    sites.push({ kind, condition, clauses: [], line: lineAt(condition.start), text: textOf(condition), outcomes });
  };

  const visit = (node: AstNode, inBody: boolean) => {
    const body = inBody || node.nodeType === "FunctionDefinition" || node.nodeType === "ModifierDefinition";
    if (body) {
      switch (node.nodeType) {
        case "IfStatement":
          add("if", node.condition as AstNode, ["true", "false"]);
          break;
        case "WhileStatement":
          add("while", node.condition as AstNode, ["true", "false"]);
          break;
        case "DoWhileStatement":
          add("do-while", node.condition as AstNode, ["true", "false"]);
          break;
        case "ForStatement":
          if (isNode(node.condition)) add("for", node.condition, ["true", "false"]);
          break;
        case "Conditional":
          add("ternary", node.condition as AstNode, ["true", "false"]);
          break;
        case "BinaryOperation":
          if (node.operator === "&&") add("&&", node.leftExpression as AstNode, ["left true (right evaluated)", "left false (short-circuit)"]);
          if (node.operator === "||") add("||", node.leftExpression as AstNode, ["left true (short-circuit)", "left false (right evaluated)"]);
          break;
        case "FunctionCall": {
          const callee = node.expression as AstNode & { name?: string };
          const args = node.arguments as AstNode[];
          if (callee.nodeType === "Identifier" && (callee.name === "require" || callee.name === "assert") && args.length > 0) {
            add(callee.name, args[0], ["passes", "fails"]);
          }
          break;
        }
        case "TryStatement": {
          const whole = rangeOf(node);
          const clauses = (node.clauses as AstNode[]).map((clause) => rangeOf(clause.block as AstNode));
          const names = (node.clauses as (AstNode & { errorName: string })[]).map((clause, i) => (i === 0 ? "success" : `catch${clause.errorName ? ` ${clause.errorName}` : ""}`));
          const call = rangeOf(node.externalCall as AstNode);
          sites.push({ kind: "try", condition: call, clauses, line: lineAt(whole.start), text: textOf(call), outcomes: names });
          break;
        }
      }
    }
    for (const child of children(node)) visit(child, body);
  };
  visit(parseAst(sourceName, content), false);
  return sites.sort((a, b) => a.condition.start - b.condition.start || b.condition.end - a.condition.end);
}

/** 32 bits naming one exact version of one source, so stale hit data never matches a changed file. */
export function fileKey(sourceName: string, content: string): bigint {
  return BigInt(`0x${createHash("sha256").update(`${sourceName}\n${content}`).digest("hex").slice(0, 8)}`);
}

/**
 * The id a probe sends for outcome 0 of site `index`; outcome k sends id + k. For conditions outcome 0 is
 * false and 1 is true — the probe sends `c ? id + 1 : id` — hence `outcomes` lists "true" first and
 * conditionOutcomeIndex maps between them.
 */
export function probeId(key: bigint, index: number): bigint {
  if (index >= 1 << 24) throw new Error("too many branch sites in one file");
  return (PROBE_MARKER << 72n) | (key << 40n) | (BigInt(index) << 8n);
}

/** Index into `outcomes` → offset added to probeId: conditions list true first but send it as +1. */
export function outcomeOffset(site: BranchSite, outcomeIndex: number): number {
  return site.kind === "try" ? outcomeIndex : 1 - outcomeIndex;
}

/** Whether a tag in coverage/data comes from a branch probe rather than from EDR's statements. */
export function isProbeTag(tag: string): boolean {
  return tag.length === 64 && BigInt(`0x${tag}`) >> 72n === PROBE_MARKER;
}

/** How the coverage manager names a tag in coverage/data: 32 bytes, lower-case hex, no 0x. */
export function tagOf(id: bigint): string {
  return id.toString(16).padStart(64, "0");
}
