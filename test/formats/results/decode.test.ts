/** A result file's bytes in the encoding it carries, never a silent "�" (src/formats/results/decode.ts). */
import { describe, expect, it } from 'vitest';
import { decodeResultBytes } from '../../../src/formats/results/decode.js';

const utf16 = (text: string, order: 'le' | 'be', bom: boolean): Uint8Array => {
	const units = [...(bom ? '\ufeff' : ''), ...text].flatMap((char) => {
		const code = char.charCodeAt(0);
		return order === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
	});
	return Uint8Array.from(units);
};
const latin1 = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const join = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

const JSON_TEXT = '{"trackName": "monza", "name": "Jürgen Ödön"}\n';

describe('decodeResultBytes', () => {
	it('reads UTF-16 LE with and without a byte order mark (ACC writes both), and BE with one', () => {
		for (const bom of [true, false]) {
			expect(decodeResultBytes(utf16(JSON_TEXT, 'le', bom))).toEqual({
				text: JSON_TEXT,
				encoding: 'utf-16le',
				warnings: [],
			});
		}
		expect(decodeResultBytes(utf16(JSON_TEXT, 'be', true))).toMatchObject({ text: JSON_TEXT, encoding: 'utf-16be' });
		expect(decodeResultBytes(utf16(JSON_TEXT, 'be', false))).toMatchObject({ text: JSON_TEXT, encoding: 'utf-16be' });
	});

	it('reads UTF-8 with and without a mark, with no warning', () => {
		expect(decodeResultBytes(utf8(JSON_TEXT))).toEqual({ text: JSON_TEXT, encoding: 'utf-8', warnings: [] });
		expect(decodeResultBytes(join(Uint8Array.from([0xef, 0xbb, 0xbf]), utf8(JSON_TEXT)))).toEqual({
			text: JSON_TEXT,
			encoding: 'utf-8',
			warnings: [],
		});
	});

	it('reads a file that is Windows-1252 throughout (iRacing CSV), naming the lines to check', () => {
		const csv = '"Fin Pos","Name"\r\n"1","Jürgen Müller"\r\n"2","Bob"\r\n"3","Zoë €uro"\r\n';
		expect(decodeResultBytes(Uint8Array.from([...latin1(csv.replace('€', '\x80'))]))).toEqual({
			text: csv,
			encoding: 'windows-1252',
			warnings: ['the file is not UTF-8: read as Windows-1252; check the letters outside ASCII on lines 2, 4'],
		});
	});

	it('follows an XML declaration of ISO-8859-1, with no warning', () => {
		const xml = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<Name>José Peña</Name>\n';
		expect(decodeResultBytes(latin1(xml))).toEqual({ text: xml, encoding: 'windows-1252', warnings: [] });
	});

	it('reads a UTF-8 file with one Latin-1 line (rFactor 2) line by line, and names the line', () => {
		const bytes = join(
			utf8('<?xml version="1.0" encoding="utf-8"?>\n<Name>Łukasz</Name>\n'),
			latin1('<Name>José</Name>\n'),
			utf8('<Name>Zoë</Name>\n'),
		);
		expect(decodeResultBytes(bytes)).toEqual({
			text: '<?xml version="1.0" encoding="utf-8"?>\n<Name>Łukasz</Name>\n<Name>José</Name>\n<Name>Zoë</Name>\n',
			encoding: 'utf-8',
			warnings: ['line 3: not UTF-8 like the rest of the file: read as Windows-1252'],
		});
	});

	it('names the lines of UTF-16 that cannot be read (a lone surrogate) instead of a silent "�"', () => {
		const bytes = utf16('{"a": 1,\n"name": "\ud800x"\n}', 'le', true);
		const decoded = decodeResultBytes(bytes);
		expect(decoded.encoding).toBe('utf-16le');
		expect(decoded.warnings).toEqual(['line 2: bytes that are not UTF-16 LE text, shown as "�"']);
	});
});
