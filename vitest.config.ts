import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		testTimeout: 60_000,
		pool: 'forks',
		// Private PostgreSQL and Redis for the storage suites.
		globalSetup: ['test/setup/store-servers.ts'],
	},
});
