/**
 * `validate --repeat-eval` (kubecfg's ReadTwice): every evaluated input must
 * give the same value when read a second time; otherwise the input is
 * reported as kubecfg reports it, by its file URL:
 * `error reading FILE: repeat read of file:///abs/FILE returned non-idempotent result`.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { goMarshalIndent } from '../../render/index.js';
import type { ShowInput } from '../../render/index.js';
import { EvalError } from './errors.js';
import { InputFailure } from './input-files.js';
import { isRemoteLocation } from '../remote-inputs/remote-location.js';

function foundAt(file: string, cwd: string): string {
  if (file === '' || isRemoteLocation(file) || file.startsWith('file://')) return file || '<cmdline>';
  return pathToFileURL(isAbsolute(file) ? file : resolve(cwd, file)).href;
}

export function checkRepeatRead(first: readonly ShowInput[], second: readonly ShowInput[], cwd: string): void {
  first.forEach((input, i) => {
    const again = second[i];
    const same =
      again !== undefined &&
      goMarshalIndent('value' in input ? input.value : input.objects, null) ===
        goMarshalIndent('value' in again ? again.value : again.objects, null);
    if (!same) {
      const name = input.file === '' ? '<cmdline>' : input.file;
      throw new InputFailure(
        name,
        new EvalError(`repeat read of ${foundAt(input.file, cwd)} returned non-idempotent result`),
      );
    }
  });
}
