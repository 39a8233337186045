package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The slowest few spans offered, slowest first. */
final class Slowest {

	private final int limit;

	private final List<Entry> entries = new ArrayList<>();

	Slowest(int limit) {
		this.limit = limit;
	}

	void offer(String spanId, long durationNanos) {
		this.entries.add(new Entry(spanId, durationNanos));
	}

	List<String> spanIds() {
		return this.entries.stream()
			.sorted(Comparator.comparingLong(Entry::durationNanos).reversed())
			.limit(this.limit)
			.map(Entry::spanId)
			.toList();
	}

	private record Entry(String spanId, long durationNanos) {
	}

}
