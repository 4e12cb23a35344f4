import { readFile } from 'node:fs/promises';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { AgentestError, type ErrorCode } from '@agentest/kernel';

/**
 * Reads a Yao DSL file (`package.yao`, `*.conn.yao`, `app.yao`) the way Yao's own loader does:
 * JSON with comments and trailing commas. A syntax error names the file, line and column, because
 * Yao's resolver rejecting JSONC that its loader accepts is exactly the trap we avoid.
 */
export async function readJsonc(file: string, code: ErrorCode = 'CONFIG_INVALID'): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AgentestError(code, `cannot read ${file}: ${(error as Error).message}`, { where: file, cause: error });
  }
  return parseJsonc(text, file, code);
}

export function parseJsonc(text: string, file: string, code: ErrorCode = 'CONFIG_INVALID'): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(text, first.offset);
    const where = `${file}:${line}:${column}`;
    throw new AgentestError(
      code,
      `${where}: invalid JSON (${describe(first)}); comments and trailing commas are fine, this is not`,
      { where },
    );
  }
  return value;
}

/** 1-based line and column of a character offset. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end',
  InvalidCommentToken: 'malformed comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

function describe(error: ParseError): string {
  const name = printParseErrorCode(error.error);
  return WORDS[name] ?? name;
}
