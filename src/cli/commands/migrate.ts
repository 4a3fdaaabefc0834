import type { CliCommand } from '../command.js';

export const command: CliCommand = async ({ stderr }) => {
  stderr.write('bailiff migrate: not built yet\n');
  return 1;
};
