/**
 * `complete/values`: what `kubecfg __complete` asks at TAB time. Contexts come
 * from the kubeconfig files the command line would use; namespaces from the
 * cluster it would talk to, with a short timeout. Any failure (no kubeconfig,
 * no cluster, no permission, a slow exec plugin) is an empty answer: a
 * completion never prints an error into the user's prompt.
 */
import { delimiter } from 'node:path';
import { isJsonObject } from '../../lang/common/json.js';
import { openCluster, type ClusterSession } from '../../kube/index.js';
import { kubeconfigFiles, loadKubeconfig } from '../../kube/kubeconfig.js';
import type { CompleteParams, CompleteResult } from '../../protocol/index.js';
import { clientEnvironment, connectionFlags } from '../commands/cluster-stage.js';
import { Flags } from '../commands/flags.js';

/** Longer than a person waits at a prompt is useless: the answer is empty instead. */
export const COMPLETE_TIMEOUT_MS = 2000;

export async function complete(params: CompleteParams, timeoutMs = COMPLETE_TIMEOUT_MS): Promise<CompleteResult> {
  const flags = connectionFlags(new Flags('diff', params.command));
  const environment = clientEnvironment(params.command);
  if (params.what === 'contexts') {
    try {
      const { files, explicit } = kubeconfigFiles(flags.kubeconfig, environment.env, environment.home, delimiter);
      return { values: [...loadKubeconfig(files, explicit, environment.files).contexts.keys()].sort() };
    } catch {
      return { values: [] };
    }
  }
  let session: ClusterSession | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    session = openCluster(flags, { environment, timeoutMs, execStderr: () => undefined });
    const opened = session;
    const list = await Promise.race([
      opened.client.request('GET', '/api/v1/namespaces'),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
    ]);
    const items = isJsonObject(list) && Array.isArray(list['items']) ? list['items'] : [];
    const names = items.flatMap((item) => {
      const meta = isJsonObject(item) ? item['metadata'] : undefined;
      return isJsonObject(meta) && typeof meta['name'] === 'string' ? [meta['name']] : [];
    });
    return { values: names.sort() };
  } catch {
    return { values: [] };
  } finally {
    clearTimeout(timer);
    session?.close();
  }
}
