import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		testTimeout: 60_000,
		pool: 'forks',
		// Private PostgreSQL and Redis for the storage suites (issue 9 §3).
		globalSetup: ['test/setup/store-servers.ts'],
	},
});
