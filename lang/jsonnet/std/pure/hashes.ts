/**
 * std.md5, std.sha1, std.sha256, std.sha512 and std.sha3 (SHA3-512, as
 * go-jsonnet's golang.org/x/crypto/sha3.Sum512): lower-case hex of the hash of
 * the string's UTF-8 bytes. Only strings are accepted (go-jsonnet's getString).
 */
import { createHash } from 'node:crypto';
import type { JsonValue } from '../../../common/json.js';
import { wantString } from './values.js';

function hexDigest(algorithm: string, v: JsonValue): string {
  return createHash(algorithm).update(wantString(v), 'utf8').digest('hex');
}

export const md5 = (v: JsonValue): string => hexDigest('md5', v);
export const sha1 = (v: JsonValue): string => hexDigest('sha1', v);
export const sha256 = (v: JsonValue): string => hexDigest('sha256', v);
export const sha512 = (v: JsonValue): string => hexDigest('sha512', v);
export const sha3 = (v: JsonValue): string => hexDigest('sha3-512', v);
