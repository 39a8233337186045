package dev.spanprofile.pyroscope;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.opentelemetry.api.trace.SpanContext;

/**
 * The Pyroscope labels of the spans in progress: for every sampled span, which span id,
 * span name and trace id its samples are labelled with. Written by span start and end,
 * read on every activation change, and turned into the string table of each upload.
 * <p>
 * Span names are table ids, one per labelled span, whose text is only resolved when a
 * profile is uploaded. Under Micrometer a server span is named when it ends, so a name
 * fixed at start would be a placeholder; the id lets the upload carry the real name of
 * every span that ended in its interval.
 * <p>
 * Labels exist only while the engine exports: names are forgotten by the upload that
 * carries them, so with nothing uploading (this instance not drawn, the start refused,
 * the runtime switch off) every label would stay for good, and a span would advertise a
 * profile that nobody records.
 */
public final class SpanLabels {

	/**
	 * First id of our span-name strings: far above the agent's own string ids, which
	 * count up from 1 and share the same table.
	 */
	static final long FIRST_NAME_ID = 1L << 40;

	/**
	 * Spans labelled at once at most; spans that never end cannot grow the table beyond
	 * it.
	 */
	static final int DEFAULT_MAX_SPANS = 20_000;

	private final boolean rootSpanOnly;

	private final int maxSpans;

	private final SpanNameLimit names;

	/**
	 * Every tracked span id (children too, in root-only mode) to the label its samples
	 * get.
	 */
	private final Map<String, Label> bySpanId = new ConcurrentHashMap<>();

	/**
	 * Labels whose names the next upload must carry; ended ones are dropped once
	 * uploaded.
	 */
	private final Map<Long, Label> named = new ConcurrentHashMap<>();

	private final AtomicLong nextNameId = new AtomicLong(FIRST_NAME_ID);

	private final LongAdder overflowed = new LongAdder();

	private volatile boolean exporting;

	public SpanLabels(boolean rootSpanOnly, int maxSpanNames) {
		this(rootSpanOnly, maxSpanNames, DEFAULT_MAX_SPANS);
	}

	SpanLabels(boolean rootSpanOnly, int maxSpanNames, int maxSpans) {
		this.rootSpanOnly = rootSpanOnly;
		this.names = new SpanNameLimit(maxSpanNames);
		this.maxSpans = maxSpans;
	}

	public boolean rootSpanOnly() {
		return this.rootSpanOnly;
	}

	/** The engine starts exporting: spans starting from now on are labelled. */
	void startExporting() {
		this.exporting = true;
	}

	/**
	 * The engine stopped exporting, or never started: forget every label, since no upload
	 * will carry or drop them, and label no span until the next start.
	 */
	void stopExporting() {
		this.exporting = false;
		this.bySpanId.clear();
		this.named.clear();
	}

	/**
	 * A sampled span started.
	 * @param parent the parent's context (invalid for a trace root)
	 * @return whether samples are labelled with this very span's id, i.e. whether it
	 * should advertise a profile
	 */
	public boolean spanStarted(SpanContext span, SpanContext parent, String name) {
		if (!this.exporting) {
			return false;
		}
		boolean localChild = parent.isValid() && !parent.isRemote();
		if (this.bySpanId.size() >= this.maxSpans) {
			this.overflowed.increment();
			return false;
		}
		if (this.rootSpanOnly && localChild) {
			// Children share their local root's label; without it (root not sampled, or
			// ended already) they stay unlabelled rather than pose as a root that Grafana
			// could link to.
			Label root = this.bySpanId.get(parent.getSpanId());
			if (root != null) {
				this.bySpanId.put(span.getSpanId(), root);
				if (!this.exporting) {
					this.bySpanId.remove(span.getSpanId(), root);
				}
			}
			return false;
		}
		Label label = new Label(parseHex(span.getSpanId(), 0, 16), this.nextNameId.getAndIncrement(),
				parseHex(span.getTraceId(), 0, 16), parseHex(span.getTraceId(), 16, 32));
		label.name = name;
		this.bySpanId.put(span.getSpanId(), label);
		this.named.put(label.nameId, label);
		if (!this.exporting) {
			// The engine stopped since the check above, and its clearing may have run
			// before these puts.
			this.bySpanId.remove(span.getSpanId(), label);
			this.named.remove(label.nameId, label);
			return false;
		}
		return true;
	}

	/** A span ended; {@code name} is its final name. */
	public void spanEnded(String spanId, String name) {
		Label label = this.bySpanId.remove(spanId);
		if (label != null && label.spanId == parseHex(spanId, 0, 16)) {
			label.name = name;
			label.ended = true;
		}
	}

	/**
	 * The label for samples taken while {@code spanId} is active, or {@code null} when
	 * they stay unlabelled.
	 */
	Label find(String spanId) {
		return this.bySpanId.get(spanId);
	}

	/**
	 * Add the names of every span labelled since the last call to {@code strings} (id to
	 * text), then forget the spans that have ended. Names still unknown (placeholders of
	 * spans in progress) are left out: such samples carry no {@code span_name} rather
	 * than a wrong one.
	 */
	void drainNames(Map<Long, String> strings) {
		for (Iterator<Label> it = this.named.values().iterator(); it.hasNext();) {
			Label label = it.next();
			boolean ended = label.ended;
			String name = label.name;
			if (isRealName(name)) {
				strings.put(label.nameId, this.names.label(name));
			}
			if (ended) {
				it.remove();
			}
		}
	}

	/**
	 * Spans left unlabelled because {@link #DEFAULT_MAX_SPANS} spans were in progress.
	 */
	public long overflowed() {
		return this.overflowed.sum();
	}

	int tracked() {
		return this.bySpanId.size();
	}

	int pendingNames() {
		return this.named.size();
	}

	static boolean isRealName(String name) {
		// Micrometer's OpenTelemetry bridge starts server spans unnamed and names them
		// when they end.
		return name != null && !name.isBlank() && !name.startsWith("<unspecified");
	}

	/**
	 * Lower-case hex to a long without allocating; OpenTelemetry ids are always valid
	 * lower-case hex.
	 */
	static long parseHex(String hex, int from, int to) {
		long value = 0;
		for (int i = from; i < to; i++) {
			char c = hex.charAt(i);
			value = (value << 4) | ((c <= '9') ? c - '0' : (c | 0x20) - 'a' + 10);
		}
		return value;
	}

	/** What the samples of one span (or one request, root-only) are labelled with. */
	static final class Label {

		final long spanId;

		final long nameId;

		final long traceIdHigh;

		final long traceIdLow;

		volatile String name;

		volatile boolean ended;

		Label(long spanId, long nameId, long traceIdHigh, long traceIdLow) {
			this.spanId = spanId;
			this.nameId = nameId;
			this.traceIdHigh = traceIdHigh;
			this.traceIdLow = traceIdLow;
		}

	}

}
