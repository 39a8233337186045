package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.store.StoreSettings;

/**
 * Local roots with chosen durations and samples, ended at a controllable clock, reported
 * to {@link NameAggregates} as the engine reports them: statistics at the end, profile
 * folded afterwards.
 */
final class SyntheticSpans {

	final AtomicLong clock = new AtomicLong(Duration.ofDays(20_000).toNanos());

	final SpanProfileStore store = new SpanProfileStore(new StoreSettings(100_000, Long.MAX_VALUE, true));

	final NameAggregates aggregates;

	private long ids;

	SyntheticSpans(AggregateSettings settings) {
		this.aggregates = new NameAggregates(settings, this.store.frames(), this.clock::get);
	}

	/**
	 * Ends a root of {@code name} now, lasting {@code duration}, with {@code samples} CPU
	 * samples per stack.
	 */
	SpanRecord root(String name, Duration duration, boolean error, int samples, String... stack) {
		String spanId = String.format("%016x", ++this.ids);
		long end = this.clock.get();
		SpanRecord record = this.store.spanStarted("t" + spanId, spanId, null, false, name, "SERVER",
				end - duration.toNanos(), "main");
		if (samples > 0) {
			this.store.addSample(record, SampleKind.CPU, frames(stack), samples);
		}
		this.store.spanEnded(spanId, name, error ? "ERROR" : "OK", end, false);
		this.aggregates.spanEnded(name, spanId, duration.toNanos(), error, end);
		this.aggregates.fold(record);
		return record;
	}

	int[] frames(String... stack) {
		int[] ids = new int[stack.length];
		for (int i = 0; i < stack.length; i++) {
			ids[i] = this.store.frames().intern(stack[i], FrameKind.JAVA);
		}
		return ids;
	}

	void advance(Duration duration) {
		this.clock.addAndGet(duration.toNanos());
	}

	/** Samples in {@code tree} whose stack contains frame {@code name}. */
	long samplesThrough(StackTree tree, String name) {
		long[] count = { 0 };
		tree.visit((path, depth, total, self) -> {
			if (this.store.frames().name(path[depth - 1]).equals(name)) {
				boolean outermost = true;
				for (int i = 0; i < depth - 1; i++) {
					outermost &= !this.store.frames().name(path[i]).equals(name);
				}
				if (outermost) {
					count[0] += total;
				}
			}
		});
		return count[0];
	}

}
