/**
 * Runs a kubeconfig `exec` credential plugin (client.authentication.k8s.io
 * ExecCredential) and caches its answer until it expires. Invariants: the
 * plugin's stdout is parsed, never echoed into errors; its stderr goes to the
 * user as it comes (device-code and browser login prompts of kubelogin, gke-
 * or aws plugins), as client-go lets it through to the terminal; a missing
 * command shows the kubeconfig's `installHint`; a failing plugin gives a
 * KUBE_AUTH error naming the command and exit status only.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { KubeError } from './errors.js';
import type { ExecConfig } from './kubeconfig.js';

export interface ExecCredential {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** Epoch ms; undefined means valid until the server says 401. */
  readonly expiresAt?: number;
}

/** Receives the plugin's stderr text as it is written. */
export type ExecOutput = (text: string) => void;

const TIMEOUT_MS = 60_000;
const MAX_STDOUT = 1 << 20;

export async function runExecPlugin(
  exec: ExecConfig,
  clusterServer: string,
  env: Readonly<Record<string, string | undefined>>,
  stderr: ExecOutput = (text) => process.stderr.write(text),
): Promise<ExecCredential> {
  const command =
    !isAbsolute(exec.command) && exec.command.includes('/') ? resolvePath(exec.baseDir, exec.command) : exec.command;
  const execInfo = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, cluster: { server: clusterServer } },
  };
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  for (const { name, value } of exec.env) childEnv[name] = value;
  childEnv['KUBERNETES_EXEC_INFO'] = JSON.stringify(execInfo);
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, [...exec.args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: KubeError | undefined;
    const timer = setTimeout(() => {
      failure = new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: no answer within 60s`);
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_STDOUT) {
        failure = new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: output is larger than 1 MiB`);
        child.kill('SIGKILL');
      } else chunks.push(c);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => stderr(text));
    child.on('error', (err: NodeJS.ErrnoException) => {
      failure =
        err.code === 'ENOENT'
          ? new KubeError('KUBE_AUTH', notInstalled(exec))
          : new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: ${err.code ?? 'failed to start'}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure !== undefined) reject(failure);
      else if (code !== 0)
        reject(
          new KubeError(
            'KUBE_AUTH',
            `exec credential plugin ${exec.command}: ${code !== null ? `exit status ${code}` : `killed by ${signal}`}`,
          ),
        );
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new KubeError(
      'KUBE_AUTH',
      `exec credential plugin ${exec.command}: output is not an ExecCredential JSON document`,
    );
  }
  const status = (parsed as { status?: Record<string, unknown> } | null)?.status;
  if (status === undefined || status === null || typeof status !== 'object') {
    throw new KubeError('KUBE_AUTH', `exec credential plugin ${exec.command}: output has no status`);
  }
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const expiry = str(status['expirationTimestamp']);
  const expiresAt = expiry !== undefined ? Date.parse(expiry) : undefined;
  const cred: ExecCredential = {
    token: str(status['token']),
    clientCertificateData: str(status['clientCertificateData']),
    clientKeyData: str(status['clientKeyData']),
    expiresAt: expiresAt !== undefined && Number.isFinite(expiresAt) ? expiresAt : undefined,
  };
  if (cred.token === undefined && (cred.clientCertificateData === undefined || cred.clientKeyData === undefined)) {
    throw new KubeError(
      'KUBE_AUTH',
      `exec credential plugin ${exec.command}: status has neither a token nor a client certificate and key`,
    );
  }
  return cred;
}

/** client-go's wording for a plugin that is not installed, followed by the kubeconfig's installHint. */
function notInstalled(exec: ExecConfig): string {
  const lines = [
    `exec: executable ${exec.command} not found`,
    '',
    'It looks like you are trying to use a client-go credential plugin that is not installed.',
    '',
    'To learn more about this feature, consult the documentation available at:',
    '      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
  ];
  if (exec.installHint !== undefined) lines.push('', exec.installHint);
  return lines.join('\n');
}
