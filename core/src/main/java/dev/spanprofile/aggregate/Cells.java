package dev.spanprofile.aggregate;

/**
 * Which cells of a name's (time bucket, latency band) matrix a merge takes: a duration
 * range over the whole window, a rectangle selected on the heatmap, or everything but
 * that rectangle.
 */
@FunctionalInterface
interface Cells {

	boolean includes(long bucket, int band);

	static Cells bands(int fromBand, int toBand) {
		return (bucket, band) -> band >= fromBand && band <= toBand;
	}

	default Cells negate() {
		return (bucket, band) -> !includes(bucket, band);
	}

}
