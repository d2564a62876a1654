import { describe, expect, it } from '@jest/globals';
import { table } from './table.js';

describe('table', () => {
  it('pads each column to its widest cell and leaves the last one unpadded', () => {
    expect(
      table(
        ['ID', 'STATUS', 'TITLE'],
        [
          ['1', 'draft', 'Hello'],
          ['22', 'published', 'Spring'],
        ],
      ).split('\n'),
    ).toEqual(['ID  STATUS     TITLE', '1   draft      Hello', '22  published  Spring']);
  });

  it('keeps a row on one line and cuts a long cell with an ellipsis', () => {
    const [, row] = table(['TEXT'], [[`line one\nline two ${'x'.repeat(100)}`]]).split('\n');
    expect(row.startsWith('line one line two x')).toBe(true);
    expect([...row]).toHaveLength(60);
    expect(row.endsWith('…')).toBe(true);
  });
});
