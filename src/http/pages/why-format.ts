/**
 * The numbers and sentences of the league pages, as the bot writes them: the explanation of a rating change
 * (src/services/ratings/why-text.ts) and the number formats (src/formats/number-text.ts). Plain text, not Discord markdown:
 * names are not escaped here, the templates' Eta escapes them for HTML.
 */
import { whyText } from '../../services/ratings/why-text.js';

export { fmtDelta, fmtMcError, fmtPct, fmtPosition, fmtRating } from '../../formats/number-text.js';
export { beforeAfter, ordinal, placeText, shownChange, shownRating } from '../../services/ratings/why-text.js';

export const { opponentsLine, partsLine, whyLines, whyBody, racerWhy } = whyText((name) => name);
