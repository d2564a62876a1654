import { describe, expect, it } from '@jest/globals';
import { whyNotPublic } from './public-address.js';

describe('whyNotPublic', () => {
  it('accepts public host names and addresses', () => {
    for (const url of [
      'https://social.example.com',
      'http://93.184.215.14:8080',
      'https://[2606:4700::1111]',
      'https://media.example.co.uk/base',
    ]) {
      expect(whyNotPublic(url)).toBe('');
    }
  });

  it('says why for unset, loopback, private and privately resolved addresses', () => {
    expect(whyNotPublic('')).toMatch(/not set/);
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080', 'http://[::ffff:127.0.0.1]']) {
      expect(whyNotPublic(url)).toMatch(/loopback/);
    }
    for (const url of [
      'http://10.1.2.3',
      'http://172.20.0.5',
      'http://192.168.1.10',
      'http://169.254.1.1',
      'http://100.64.0.1',
      'http://[fd00::1]',
      'http://[fe80::1]',
      'http://0.0.0.0',
    ]) {
      expect(whyNotPublic(url)).toMatch(/private address/);
    }
    for (const url of ['http://gateway:8080', 'http://media.local', 'http://api.internal', 'http://app.localhost']) {
      expect(whyNotPublic(url)).toMatch(/private network/);
    }
    expect(whyNotPublic('not a url')).toMatch(/not a URL/);
  });
});
