import { acReader } from './ac.js';
import { ams2Reader } from './ams2.js';
import { race07Reader } from './race07.js';
import { raceroomReader } from './raceroom.js';
import { rfactorXmlReader } from './rfactor-xml.js';
import { accReader } from './acc.js';
import { classificationReader } from './classification.js';
import { iracingCsvReader } from './iracing-csv.js';
import { iracingJsonReader } from './iracing-json.js';
import { lorenziReader } from './lorenzi.js';
import type { ResultReader } from './types.js';

/**
 * Every sim result format pitwall reads, tried in this order by `detect` on the file's content (never its name).
 * The order only matters where two formats could look alike: the most specific look comes first.
 */
export const RESULT_READERS: readonly ResultReader[] = [
	accReader,
	acReader,
	ams2Reader,
	rfactorXmlReader,
	raceroomReader,
	race07Reader,
	iracingJsonReader,
	iracingCsvReader,
	classificationReader,
	lorenziReader,
];

export function detectResultFormat(text: string): ResultReader | undefined {
	return RESULT_READERS.find((reader) => reader.detect(text));
}

export { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';
