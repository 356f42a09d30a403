// The worker's side of stdout as bytes; the helpers live with the commands, which make such outcomes too.
export { STDOUT_BYTES_MIN, knownStdoutBytes, withChanges, withStdoutBytes } from '../commands/stdout-bytes.js';
