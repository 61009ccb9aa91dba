/**
 * Parts of a total, rounded so that the rounded parts add up to the total as shown (numbers add up on
 * screen). Largest remainder: every part is rounded down to the unit, then the units still missing (or in excess)
 * go to the parts with the largest (smallest) remainders. `total` is the shown total, already a multiple of the unit
 * (e.g. the difference of two shown ratings).
 */
export function roundedParts(parts: readonly number[], total: number, decimals = 1): number[] {
	if (parts.length === 0) return [];
	const scale = 10 ** decimals;
	const units = parts.map((p) => p * scale);
	const floors = units.map((u) => Math.floor(u));
	let missing = Math.round(total * scale) - floors.reduce((s, f) => s + f, 0);
	const byRemainder = units.map((_, i) => i).sort((a, b) => units[b]! - floors[b]! - (units[a]! - floors[a]!));
	for (let k = 0; missing > 0; k++, missing--) floors[byRemainder[k % parts.length]!]! += 1;
	for (let k = 0; missing < 0; k++, missing++) floors[byRemainder[parts.length - 1 - (k % parts.length)]!]! -= 1;
	return floors.map((f) => f / scale);
}
