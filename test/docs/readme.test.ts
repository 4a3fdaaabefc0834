import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from './helpers/repository-files.js';

const readme = readRepositoryFile('README.md');

describe('README.md is a landing page', () => {
  it('opens with the two commands a newcomer runs', () => {
    const lines = readme.split('\n');
    expect(lines[3]).toMatch(/^npm ci && npm start {3}# install, then run a game server with Bailiff/);
    expect(lines[4]).toMatch(/^npm ci && npm test {4}# install, then build and run every test/);
  });

  it('stays short and sends each reader to docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const folder of ['owners', 'plugin-authors', 'operators', 'contract', 'contributors']) {
      expect(readme).toContain(`](docs/${folder}/`);
    }
  });
});
