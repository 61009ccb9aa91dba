/** "1 race", "2 races": a count and its noun, for English nouns that take a plain -s. */
export function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}
