import { formatTime } from './scoreboard.js';

/**
 * A finish time as people read it on a results screen: milliseconds kept, `1:24.010` not `1:24.01`;
 * `59.120` under a minute; `1:02:03.400` from an hour. A time with more than millisecond precision is written in
 * full (the scoreboard's own exact form), so no digit is ever lost.
 */
export function displayTime(seconds: number): string {
	const ms = Math.round(seconds * 1000);
	if (Math.abs(ms - seconds * 1000) > 1e-6 || ms < 0) return formatTime(seconds);
	const fraction = String(ms % 1000).padStart(3, '0');
	const whole = Math.floor(ms / 1000);
	const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
	if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${fraction}`;
	if (m > 0) return `${m}:${String(s).padStart(2, '0')}.${fraction}`;
	return `${s}.${fraction}`;
}
