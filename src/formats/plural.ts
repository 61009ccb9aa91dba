/** "1 race", "2 races": a count and its noun; `words` where the plural is not a plain -s ("aliases"). */
export function plural(n: number, word: string, words = `${word}s`): string {
	return `${n} ${n === 1 ? word : words}`;
}
