package dev.spanprofile.pyroscope;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds the distinct values of the {@code span_name} label. Pyroscope turns every value
 * into a series of its own, so the first {@code max} names seen are kept and any later
 * new name is reported as {@value #OTHER}. (An LRU would bound this process's memory but
 * not the number of series on the server, which grows with every name ever sent.)
 */
final class SpanNameLimit {

	static final String OTHER = "other";

	private final int max;

	private final Set<String> known = ConcurrentHashMap.newKeySet();

	SpanNameLimit(int max) {
		this.max = max;
	}

	String label(String name) {
		if (this.known.contains(name)) {
			return name;
		}
		synchronized (this.known) {
			if (this.known.size() < this.max) {
				this.known.add(name);
				return name;
			}
		}
		return OTHER;
	}

	int size() {
		return this.known.size();
	}

}
