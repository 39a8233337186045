package dev.spanprofile.aggregate;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The aggregates by span name, at most {@link AggregateSettings#maxNames()} of them plus
 * {@link AggregateSettings#OTHER}. Read without a lock; its own monitor is taken to
 * create a name and to sweep, so that the limit holds and a sweep sees every name.
 */
final class NameTable {

	private final AggregateSettings settings;

	private final Map<String, NameAggregate> names = new ConcurrentHashMap<>();

	/**
	 * Runs between resolving a name and recording into its aggregate: where a test
	 * interleaves a sweep.
	 */
	Runnable afterResolve = () -> {
	};

	NameTable(AggregateSettings settings) {
		this.settings = settings;
	}

	/** The name's aggregate, or {@code null} for a name never seen (or swept). */
	NameAggregate get(String name) {
		return this.names.get(name);
	}

	/** Every name's aggregate, as it changes. */
	Collection<NameAggregate> all() {
		return this.names.values();
	}

	int size() {
		return this.names.size();
	}

	/**
	 * The aggregate to record a span of {@code name} into, created if needed;
	 * {@link AggregateSettings#OTHER}'s once the name limit is reached. A sweep may
	 * retire it before the recording takes its lock: the recording then asks again.
	 */
	NameAggregate forRecording(String name) {
		NameAggregate aggregate = resolve(name);
		this.afterResolve.run();
		return aggregate;
	}

	private NameAggregate resolve(String name) {
		NameAggregate aggregate = this.names.get(name);
		if (aggregate != null) {
			return aggregate;
		}
		synchronized (this.names) {
			aggregate = this.names.get(name);
			if (aggregate != null) {
				return aggregate;
			}
			long real = this.names.size() - (this.names.containsKey(AggregateSettings.OTHER) ? 1 : 0);
			String key = (real < this.settings.maxNames()) ? name : AggregateSettings.OTHER;
			return this.names.computeIfAbsent(key,
					(created) -> new NameAggregate(created, this.settings.bucketCount()));
		}
	}

	/**
	 * Remove the aggregates {@code retired} retires, then run {@code afterwards}, with no
	 * name created meanwhile.
	 */
	void sweep(Predicate<NameAggregate> retired, Runnable afterwards) {
		synchronized (this.names) {
			this.names.values().removeIf(retired);
			afterwards.run();
		}
	}

}
