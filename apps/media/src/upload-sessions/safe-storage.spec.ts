import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { containsMarkup, inspectContent } from './content-inspection.js';
import { declaredFamily, familyOf } from './media-types.js';

// A 1×1 PNG: a real image, so only what follows it decides.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAX+XDSwAAAABJRU5ErkJggg==', 'base64');

describe('docs/decisions.md, safe storage', () => {
  it('refuses markup anywhere in the first 64 KiB, even behind a valid image header (a polyglot)', async () => {
    for (const markup of [
      '<html><script>alert(1)</script>',
      '<?xml version="1.0"?><a/>',
      '<svg onload=alert(1)>',
      '<!DOCTYPE html>',
      '<iframe src=x>',
      '<p xmlns="http://www.w3.org/1999/xhtml">',
    ]) {
      const polyglot = Buffer.concat([PNG, randomBytes(30_000), Buffer.from(markup), randomBytes(1_000)]);
      expect({ markup, found: containsMarkup(polyglot) }).toEqual({ markup, found: true });
      const facts = await inspectContent(Readable.from([polyglot]));
      expect(facts.refused).toMatch(/markup/);
    }
  });

  it('looks only at the first 64 KiB, and lets an image’s XMP metadata packet through', async () => {
    const late = Buffer.concat([PNG, Buffer.alloc(70_000), Buffer.from('<html>')]);
    expect(containsMarkup(late)).toBe(false);
    const xmp = Buffer.from(
      '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ' +
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta><?xpacket end="w"?>',
    );
    const photo = Buffer.concat([PNG, xmp]);
    expect(containsMarkup(photo)).toBe(false);
    expect((await inspectContent(Readable.from([photo]))).refused).toBeUndefined();
  });

  it('knows each type’s family and what the uploader declared', () => {
    expect(familyOf('image/png')).toBe('image');
    expect(familyOf('video/mp4')).toBe('video');
    expect(familyOf('audio/mpeg')).toBe('audio');
    expect(familyOf('application/pdf')).toBe('document');
    expect(familyOf('application/octet-stream')).toBeNull();
    expect(declaredFamily('video/mp4', 'cat.png')).toBe('video');
    expect(declaredFamily('', 'cat.PNG')).toBe('image');
    expect(declaredFamily('', 'report.pdf')).toBe('document');
    expect(declaredFamily('', 'notes')).toBeNull();
  });
});
