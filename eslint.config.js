// ESLint flat config, type-aware (STYLE.md 23). The layer rule keeps src/ratings, src/league, src/formats and src/analysis pure (STYLE.md 17).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const impureModules = [
	'discord.js',
	'@discordjs/*',
	'keyv',
	'@keyv/*',
	'node-cron',
	'chartjs-node-canvas',
	'node:fs',
	'fs',
	'node:fs/promises',
];

export default tseslint.config(
	{ ignores: ['node_modules/', 'coverage/', 'dist/', 'dist-*/', 'data/'] },
	js.configs.recommended,
	...tseslint.configs.recommendedTypeChecked,
	{
		languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
			'@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
			'no-console': 'off',
		},
	},
	{
		files: ['src/ratings/**/*.ts', 'src/league/**/*.ts', 'src/formats/**/*.ts', 'src/analysis/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: impureModules.map((group) => ({
						group: [group],
						message:
							'src/ratings, src/league, src/formats and src/analysis are pure: no I/O, no Discord, no storage, no charts.',
					})),
				},
			],
			'no-restricted-globals': ['error', { name: 'Date', message: 'Pure code takes time as input; pass dates in.' }],
			'no-restricted-properties': [
				'error',
				{ object: 'Math', property: 'random', message: 'Pure code is deterministic; pass a seeded generator in.' },
			],
		},
	},
	{ files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
