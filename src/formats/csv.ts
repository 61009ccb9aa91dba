/**
 * A small RFC 4180 CSV reader: comma-separated fields, double-quoted fields may hold commas, newlines and doubled
 * quotes (`""`). Tolerates CRLF and LF line ends, a UTF-8 byte-order mark and a missing final newline.
 * Pure: it takes text and returns rows with the 1-based line number where each row starts.
 */

export interface CsvRow {
	/** 1-based line of the file where this row starts (a quoted field may span lines). */
	readonly line: number;
	readonly fields: string[];
}

/** A malformed CSV text; `line` is the 1-based line of the problem. */
export class CsvError extends Error {
	override readonly name = 'CsvError';
	constructor(
		readonly line: number,
		readonly what: string,
	) {
		super(`line ${line}: ${what}`);
	}
}

/**
 * Read every row of `text`. Blank lines (no characters at all) are skipped; a row with only empty fields, like
 * `,,`, is kept. Quotes are only special at the start of a field: a quote inside an unquoted field, or text after
 * a closing quote, is an error.
 */
export function readCsv(text: string): CsvRow[] {
	const rows: CsvRow[] = [];
	let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	let line = 1;
	const n = text.length;
	while (i < n) {
		const start = line;
		// A blank line: skip it.
		if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) {
			i += text[i] === '\r' ? 2 : 1;
			line++;
			continue;
		}
		const fields: string[] = [];
		for (;;) {
			let field = '';
			if (text[i] === '"') {
				const quoteLine = line;
				i++;
				for (;;) {
					if (i >= n) throw new CsvError(quoteLine, 'unterminated quoted field');
					const c = text[i]!;
					if (c === '"') {
						if (text[i + 1] === '"') {
							field += '"';
							i += 2;
							continue;
						}
						i++;
						break;
					}
					if (c === '\n') line++;
					field += c;
					i++;
				}
				if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
					throw new CsvError(line, 'unexpected text after a closing quote');
				}
			} else {
				const from = i;
				while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
					if (text[i] === '"') throw new CsvError(line, 'a quote inside an unquoted field (quote the whole field)');
					i++;
				}
				field = text.slice(from, i);
			}
			fields.push(field);
			if (i < n && text[i] === ',') {
				i++;
				continue;
			}
			// End of row: a line end or the end of the text.
			if (i < n) {
				i += text[i] === '\r' ? 2 : 1;
				line++;
			}
			break;
		}
		rows.push({ line: start, fields });
	}
	return rows;
}

/** One CSV field, quoted when it holds a comma, a quote, a line end or surrounding spaces. */
export function csvField(value: string): string {
	return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line (without its line end). */
export function csvLine(values: readonly string[]): string {
	return values.map(csvField).join(',');
}
