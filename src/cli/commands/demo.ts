import type { CliCommand } from '../command.js';

export const command: CliCommand = async ({ stderr }) => {
  stderr.write('bailiff demo: not built yet\n');
  return 1;
};
