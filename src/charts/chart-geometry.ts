/**
 * Where a drawn chart put its data: the chart area and each scale's value range and pixel extent, recorded after
 * layout. Tests map data to pixels with it (a linear scale maps min..max onto its pixel extent) and then look at the
 * PNG; the map is computed by the test, not asked of Chart.js, so a chart drawn in the wrong place fails.
 */
import type { Chart, Plugin } from 'chart.js';

export interface ScaleGeometry {
	readonly type: string;
	/** `x` (horizontal) or `y` (vertical). */
	readonly axis: string;
	readonly min: number;
	readonly max: number;
	/** Pixel extent of the scale box. */
	readonly left: number;
	readonly right: number;
	readonly top: number;
	readonly bottom: number;
	/** A category scale's labels, in order. */
	readonly labels?: readonly string[];
}

export interface ChartGeometry {
	readonly width: number;
	readonly height: number;
	readonly chartArea: { readonly left: number; readonly top: number; readonly right: number; readonly bottom: number };
	readonly scales: Readonly<Record<string, ScaleGeometry>>;
}

/** A plugin that hands the geometry to `record` once the chart is laid out. */
export function geometryRecorder(record: (geometry: ChartGeometry) => void): Plugin {
	return {
		id: 'pitwallGeometry',
		afterRender(chart: Chart) {
			const { left, top, right, bottom } = chart.chartArea;
			const scales: Record<string, ScaleGeometry> = {};
			for (const [id, scale] of Object.entries(chart.scales)) {
				scales[id] = {
					type: scale.type,
					axis: scale.axis,
					min: scale.min,
					max: scale.max,
					left: scale.left,
					right: scale.right,
					top: scale.top,
					bottom: scale.bottom,
					...(scale.type === 'category' ? { labels: scale.getLabels().map(String) } : {}),
				};
			}
			record({ width: chart.width, height: chart.height, chartArea: { left, top, right, bottom }, scales });
		},
	};
}
