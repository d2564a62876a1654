import { describe, expect, it } from '@jest/globals';
import { isChecked, longLines, matchesSkip, MAX_LINE_LENGTH } from './long-lines.js';

describe('long-lines', () => {
  it('finds a line over 140 characters, with its number and length, and passes one of exactly 140', () => {
    const text = ['const short = 1;', 'x'.repeat(MAX_LINE_LENGTH), `// ${'y'.repeat(MAX_LINE_LENGTH)}`, ''].join('\n');
    expect(longLines(text)).toEqual([{ line: 3, length: MAX_LINE_LENGTH + 3 }]);
    expect(longLines('const short = 1;\n')).toEqual([]);
  });

  it('counts characters, not bytes or UTF-16 units, and ignores the carriage return of a CRLF line', () => {
    const arrows = '→'.repeat(MAX_LINE_LENGTH);
    const emoji = '🙂'.repeat(MAX_LINE_LENGTH);
    expect(longLines(`${arrows}\r\n${emoji}\r\n`)).toEqual([]);
    expect(longLines(`${arrows}→\n`)).toEqual([{ line: 1, length: MAX_LINE_LENGTH + 1 }]);
  });

  it('checks tracked code files but not generated ones, nor what a skip names by prefix or glob', () => {
    expect(isChecked('apps/gateway/src/main.ts')).toBe(true);
    expect(isChecked('eslint.config.mjs')).toBe(true);
    expect(isChecked('README.md')).toBe(false);
    expect(isChecked('libs/sdk/src/generated/openapi.ts')).toBe(false);

    const skips = ['apps/gateway/src/**/*.controller.ts', 'apps/*/src/**/*.handler.ts', 'tools/src/bench'];
    expect(isChecked('apps/gateway/src/publishing/publications.controller.ts', skips)).toBe(false);
    expect(isChecked('apps/gateway/src/app.controller.ts', skips)).toBe(false);
    expect(isChecked('apps/creative/src/project-assets/asset-upload-events.handler.ts', skips)).toBe(false);
    expect(isChecked('tools/src/bench/run.ts', skips)).toBe(false);
    expect(isChecked('apps/media/src/library/library.controller.ts', skips)).toBe(true);
    expect(isChecked('tools/src/benchmarks.ts', skips)).toBe(true);
  });

  it('keeps * and ? within one path segment', () => {
    expect(matchesSkip('apps/a/src/x.ts', 'apps/*/src/*.ts')).toBe(true);
    expect(matchesSkip('apps/a/b/src/x.ts', 'apps/*/src/*.ts')).toBe(false);
    expect(matchesSkip('apps/a/src/deep/x.ts', 'apps/*/src/**')).toBe(true);
    expect(matchesSkip('apps/a/src/x.ts', 'apps/?/src/x.ts')).toBe(true);
    expect(matchesSkip('apps/ab/src/x.ts', 'apps/?/src/x.ts')).toBe(false);
    expect(matchesSkip('apps/a/src/x+ts', 'apps/*/src/x.ts')).toBe(false);
  });
});
