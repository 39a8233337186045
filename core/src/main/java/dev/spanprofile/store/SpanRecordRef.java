package dev.spanprofile.store;

/**
 * Where the attributor's timelines point for a span, instead of at its record: the record
 * is let go of once the store has dropped it for good. Timelines keep about two dump
 * intervals of change points, several times longer than a busy store keeps a request;
 * holding the records themselves kept every request of that stretch alive through a dozen
 * young collections (measured on the page benchmark: about 5,000 records, 170 KB copied
 * per age and collection, which doubled the GC threads' time per request).
 */
public final class SpanRecordRef {

	private volatile SpanRecord record;

	SpanRecordRef(SpanRecord record) {
		this.record = record;
	}

	/**
	 * The record, or {@code null} once it is gone: out of the store and no longer taking
	 * samples.
	 */
	public SpanRecord get() {
		return this.record;
	}

	void clear() {
		this.record = null;
	}

}
