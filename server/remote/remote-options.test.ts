import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRemoteOptions } from './remote-options.js';

const required = ['--tls-cert', 'c', '--tls-key', 'k', '--tokens', 't'];

test('the bundle cache of remote inputs defaults beside the store, or goes where --fetch-cache says', () => {
  const table: [string[], string][] = [
    [[], '/state/kubecfg-remote/fetched'],
    [['--store', '/var/lib/kubecfg-remote/blobs'], '/var/lib/kubecfg-remote/fetched'],
    [['--store', '/s/blobs', '--fetch-cache', '/elsewhere'], '/elsewhere'],
  ];
  for (const [args, want] of table)
    assert.equal(
      parseRemoteOptions([...required, ...args], { XDG_STATE_HOME: '/state' }).fetchCacheDir,
      want,
      args.join(' '),
    );
});
