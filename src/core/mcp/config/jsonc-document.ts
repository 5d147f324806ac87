import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import type { ConfigDiagnostic } from './diagnostic';

/** What each of jsonc-parser's error codes asks the person to fix. */
const SYNTAX_HINTS: Record<string, string> = {
  InvalidSymbol: 'unexpected character here',
  InvalidNumberFormat: 'this is not a valid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value (a string, number, object, array, true, false or null)',
  ColonExpected: 'expected ":" after the property name',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'expected the end of the file: there is text after the closing "}"',
  InvalidCommentToken: 'this comment is not closed or not valid',
  UnexpectedEndOfComment: 'a /* comment */ is not closed',
  UnexpectedEndOfString: 'a string is not closed: add the closing double quote',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'invalid \\u escape: it needs four hex digits',
  InvalidEscapeCharacter: 'invalid escape in a string (use \\\\ for a backslash)',
  InvalidCharacter: 'a control character in a string must be escaped (e.g. \\n, \\t)',
};

/** Cascading errors after the first few say nothing new. */
const MAX_SYNTAX_DIAGNOSTICS = 5;

export interface Position {
  line: number;
  column: number;
}

/**
 * A parsed JSONC file (comments and trailing commas allowed, as VS Code and Claude allow them) that
 * can say where any part of it is, so every problem points at the line and column to fix.
 */
export class JsoncDocument {
  readonly root: Node | undefined;
  readonly syntaxErrors: readonly ParseError[];
  private readonly lineStarts: number[];

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    const errors: ParseError[] = [];
    this.root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
    this.syntaxErrors = errors;
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /** 1-based line and column of a character offset. */
  position(offset: number): Position {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.lineStarts[lo] ?? 0) + 1 };
  }

  node(path: JSONPath): Node | undefined {
    return this.root && findNodeAtLocation(this.root, path);
  }

  /** The plain value at `path` (the last of duplicate keys wins, as in JSON.parse). */
  value(path: JSONPath): unknown {
    const node = this.node(path);
    return node && getNodeValue(node);
  }

  /**
   * Where a problem at `path` is best shown: the value there when it exists; else (a missing
   * property) the key of the nearest object that should hold it, e.g. the server's name.
   */
  anchor(path: JSONPath): Position {
    for (let n = path.length; n >= 0; n--) {
      const node = this.node(path.slice(0, n));
      if (!node) continue;
      if (n === path.length) return this.position(node.offset);
      const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      return this.position((key ?? node).offset);
    }
    return { line: 1, column: 1 };
  }

  /** Where the property at `path` is named: its key, for problems with the property as a whole. */
  keyPosition(path: JSONPath): Position {
    const node = this.node(path);
    const key = node?.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return key ? this.position(key.offset) : this.anchor(path);
  }

  /** True when a syntax error lies inside `node`: what the parser recovered there may not be what was meant. */
  hasSyntaxErrorIn(node: Node): boolean {
    return this.syntaxErrors.some((e) => e.offset >= node.offset && e.offset < node.offset + node.length);
  }

  syntaxDiagnostics(): ConfigDiagnostic[] {
    // The parser often reports two errors at one spot ("expected a property name", "expected a value"): the first says it.
    const distinct = this.syntaxErrors.filter((e, i, all) => all[i - 1]?.offset !== e.offset);
    const shown = distinct.slice(0, MAX_SYNTAX_DIAGNOSTICS).map((e): ConfigDiagnostic => {
      const code = printParseErrorCode(e.error);
      return { file: this.file, ...this.position(e.offset), severity: 'error', syntax: true, message: `not valid JSON: ${SYNTAX_HINTS[code] ?? code}` };
    });
    const more = distinct.length - shown.length;
    const lastShown = shown.at(-1);
    if (more > 0 && lastShown) lastShown.message += ` (and ${more} more syntax error${more === 1 ? '' : 's'} after it)`;
    return shown;
  }

  /** The properties of the object at `path` in file order, duplicates included (JSON.parse would keep only the last). */
  properties(path: JSONPath): Array<{ key: string; keyNode: Node; value: Node }> {
    const node = this.node(path);
    if (node?.type !== 'object') return [];
    return (node.children ?? []).flatMap((p) => {
      const [keyNode, value] = p.children ?? [];
      return keyNode && value && typeof keyNode.value === 'string' ? [{ key: keyNode.value, keyNode, value }] : [];
    });
  }
}
