import { ResultFileError } from './types.js';

/** Reading a sim's JSON result file without trusting its shape: a wrong type is "absent", never a TypeError. */

export type Json = Readonly<Record<string, unknown>>;

/** The file's top object; a file that is not JSON (cut short, damaged) or not an object is a ResultFileError. */
export function parseJsonObject(text: string): Json {
	let data: unknown;
	try {
		data = JSON.parse(text.replace(/^\uFEFF/u, ''));
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		throw new ResultFileError(`the file is not complete JSON (cut short or damaged?): ${why}`);
	}
	const root = obj(data);
	if (root === undefined) throw new ResultFileError('the file is JSON but not a results object');
	return root;
}

export const obj = (value: unknown): Json | undefined =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

/** The objects of an array (anything else in it skipped); [] when it is no array. */
export function objects(value: unknown): Json[] {
	if (!Array.isArray(value)) return [];
	const found: Json[] = [];
	for (const item of value as unknown[]) {
		const object = obj(item);
		if (object !== undefined) found.push(object);
	}
	return found;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const int = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : undefined;
