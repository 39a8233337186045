package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The finished requests (local roots) kept beyond the recent ones, and why: per span name
 * the slowest few, the latest failed one per name and minute, and those their callers
 * asked for ({@link SpanRecord#isForced()}), for the retention window.
 * <p>
 * Bounded twice over: by count (names beyond the cap share the slots of "other", errors
 * have a fixed number of slots) and by share of the store: protected requests hold at
 * most half of its span count and memory, so recent requests always have the other half.
 * Going over a bound releases the request protected longest ago. A released request is an
 * ordinary old one again, which the store drops first when it needs room.
 * <p>
 * A request is judged as it ends, but most of its samples are joined later (the collector
 * joins them a dump interval or so after they were taken). So its memory is not measured
 * once: the samples of a protected request, those it holds and those joined later (to its
 * descendants too), are charged to an {@link #account() account} of their own, which
 * {@link #overShare()} reads as each sample is added; the store then has the requests
 * protected longest ago released ({@link #releaseBeyondShare}) until the rest fit. A
 * released request's charge leaves the account as it is released (the store's
 * {@code onReleased}), so that each release is measured by all the memory it frees, not
 * by its spans alone.
 * <p>
 * {@link Eviction} calls {@link #consider} and the releasing methods under its lock, so
 * that no request is evicted while it is being protected; every method is synchronized
 * for the cheap {@link #worthConsidering} check, which runs outside that lock.
 */
final class ProtectedRoots {

	/** The name requests of names beyond the cap are counted under. */
	static final String OTHER = "other";

	private static final long MINUTE_NANOS = 60_000_000_000L;

	/**
	 * Forced requests kept at once, beyond the slots of the slowest and failed ones; the
	 * oldest goes for a newer one. Callers are rate-limited long before this.
	 */
	static final int MAX_FORCED = 200;

	private final RetentionSettings settings;

	private final int maxSpans;

	private final long maxBytes;

	/** Per name, the slowest requests, fastest first (the next to be outranked). */
	private final Map<String, List<Held>> slowestByName = new HashMap<>();

	/** The protected failed requests, in the order they were protected. */
	private final LinkedHashMap<ErrorSlot, Held> errors = new LinkedHashMap<>();

	/** Every protected request, in the order it was protected. */
	private final LinkedHashMap<SpanRecord, Held> held = new LinkedHashMap<>();

	/** Spans of the protected requests; written under this object's lock. */
	private volatile long heldSpans;

	/**
	 * What the samples of the protected requests hold: {@link Eviction} moves their
	 * charge here when it protects a request, and back when it is released.
	 */
	private final AtomicLong sampleBytes = new AtomicLong();

	/**
	 * Span time: the latest end seen, so that the window follows the spans' own clock.
	 */
	private long latestEndEpochNanos;

	private long nextExpiryEpochNanos = Long.MAX_VALUE;

	/** Protected requests forced by their callers. */
	private int forcedCount;

	/** Takes a released request's samples off {@link #account()}. */
	private final Consumer<SpanRecord> onReleased;

	/**
	 * @param maxSpans spans (requests with their descendants) protected requests may hold
	 * in all
	 * @param maxBytes memory protected requests may hold in all
	 * @param onReleased called, under this object's lock, with each request released that
	 * was charged to {@link #account()}: it must move that charge elsewhere before it
	 * returns
	 */
	ProtectedRoots(RetentionSettings settings, int maxSpans, long maxBytes, Consumer<SpanRecord> onReleased) {
		this.settings = settings;
		this.maxSpans = maxSpans;
		this.maxBytes = maxBytes;
		this.onReleased = onReleased;
	}

	/**
	 * Whether a request ending now might be kept; most are not, and this tells without
	 * the store's eviction lock.
	 */
	synchronized boolean worthConsidering(String name, boolean error, long durationNanos) {
		if (error && this.settings.maxErrorSpans() > 0) {
			return true;
		}
		if (this.settings.slowestPerName() == 0) {
			return false;
		}
		List<Held> slowest = this.slowestByName.get(nameKey(name));
		return slowest == null || slowest.size() < this.settings.slowestPerName()
				|| durationNanos > slowest.get(0).durationNanos;
	}

	/**
	 * Decide whether a request that just ended is kept. One that is must then have its
	 * samples charged to {@link #account()}, and the share restored
	 * ({@link #releaseBeyondShare}).
	 * @param spans spans of the request (root and descendants)
	 * @param bytes memory the request holds now: one that alone would not fit in the
	 * share is not kept
	 * @param released collects the requests no longer protected for any reason
	 * @return whether it is protected
	 */
	synchronized boolean consider(SpanRecord root, String name, boolean error, long durationNanos, long endEpochNanos,
			int spans, long bytes, List<SpanRecord> released) {
		this.latestEndEpochNanos = Math.max(this.latestEndEpochNanos, endEpochNanos);
		if (spans > this.maxSpans || bytes > this.maxBytes) {
			// Keeping it would release every other protected request and still not fit.
			return false;
		}
		String key = nameKey(name);
		Held candidate = new Held(root, durationNanos, endEpochNanos, spans);
		boolean slowest = keepIfSlowest(key, candidate, released);
		boolean failed = error && keepIfError(key, candidate, released);
		candidate.forced = root.isForced();
		if (!slowest && !failed && !candidate.forced) {
			return false;
		}
		if (candidate.forced) {
			releaseForcedBeyond(MAX_FORCED - 1, released);
			this.forcedCount++;
		}
		this.held.put(root, candidate);
		this.heldSpans += spans;
		root.retainedAs(candidate.reason());
		this.nextExpiryEpochNanos = Math.min(this.nextExpiryEpochNanos,
				endEpochNanos + this.settings.window().toNanos());
		return true;
	}

	/**
	 * The account the samples of protected requests are charged to, as long as they are
	 * protected.
	 */
	AtomicLong account() {
		return this.sampleBytes;
	}

	/**
	 * A span joined the protected request {@code root} after it was judged (an
	 * asynchronous child of a finished request): it counts against the share from now on,
	 * unless the request is no longer protected.
	 */
	synchronized void joined(SpanRecord root) {
		Held entry = this.held.get(root);
		if (entry != null) {
			entry.spans++;
			this.heldSpans++;
		}
	}

	/**
	 * Whether the protected requests hold more than their share now; without the lock, as
	 * each sample is added.
	 */
	boolean overShare() {
		return this.heldSpans > this.maxSpans || heldBytes() > this.maxBytes;
	}

	/** Memory the protected requests hold now, their spans and their samples. */
	long heldBytes() {
		return this.heldSpans * SpanProfileStore.BYTES_PER_SPAN + this.sampleBytes.get();
	}

	/**
	 * Release the requests protected longest ago while the protected ones hold more than
	 * their share or there are more of them than there are slots. A request that fits
	 * alone is released last; one that has outgrown the share alone goes too.
	 * @param released collects them
	 */
	synchronized void releaseBeyondShare(List<SpanRecord> released) {
		while (!this.held.isEmpty()
				&& (overShare() || this.held.size() > this.settings.maxProtectedRoots() + this.forcedCount)) {
			released.add(releaseOldest());
		}
	}

	private void releaseForcedBeyond(int count, List<SpanRecord> released) {
		Iterator<Held> oldestFirst = this.held.values().iterator();
		while (this.forcedCount > count && oldestFirst.hasNext()) {
			Held entry = oldestFirst.next();
			if (entry.forced) {
				entry.forced = false;
				this.forcedCount--;
				if (!entry.slowest && entry.errorSlot == null) {
					oldestFirst.remove();
					this.heldSpans -= entry.spans;
					entry.root.retainedAs(RetainedAs.RECENT);
					this.onReleased.accept(entry.root);
					released.add(entry.root);
				}
				else {
					entry.root.retainedAs(entry.reason());
				}
			}
		}
	}

	private boolean keepIfSlowest(String key, Held candidate, List<SpanRecord> released) {
		int limit = this.settings.slowestPerName();
		if (limit == 0) {
			return false;
		}
		List<Held> slowest = this.slowestByName.get(key);
		if (slowest == null) {
			slowest = new ArrayList<>(limit);
			this.slowestByName.put(key, slowest);
		}
		if (slowest.size() >= limit) {
			if (candidate.durationNanos <= slowest.get(0).durationNanos) {
				return false;
			}
			Held outranked = slowest.remove(0);
			outranked.slowest = false;
			releaseIfUnheld(outranked, released);
		}
		int at = 0;
		while (at < slowest.size() && slowest.get(at).durationNanos < candidate.durationNanos) {
			at++;
		}
		slowest.add(at, candidate);
		candidate.slowest = true;
		candidate.nameKey = key;
		return true;
	}

	private boolean keepIfError(String key, Held candidate, List<SpanRecord> released) {
		if (this.settings.maxErrorSpans() == 0) {
			return false;
		}
		ErrorSlot slot = new ErrorSlot(key, candidate.endEpochNanos / MINUTE_NANOS);
		// The latest failure of a name in a minute replaces the one before: the most
		// recent is the one asked about.
		Held previous = this.errors.remove(slot);
		if (previous != null) {
			previous.errorSlot = null;
			releaseIfUnheld(previous, released);
		}
		this.errors.put(slot, candidate);
		candidate.errorSlot = slot;
		while (this.errors.size() > this.settings.maxErrorSpans()) {
			Iterator<Held> oldest = this.errors.values().iterator();
			Held dropped = oldest.next();
			oldest.remove();
			dropped.errorSlot = null;
			releaseIfUnheld(dropped, released);
		}
		return true;
	}

	/**
	 * Release the requests whose window is over.
	 * @param nowEpochNanos the time now, or 0 to go by the latest span end seen
	 */
	synchronized void expire(long nowEpochNanos, List<SpanRecord> released) {
		long now = Math.max(nowEpochNanos, this.latestEndEpochNanos);
		if (now < this.nextExpiryEpochNanos) {
			return;
		}
		long window = this.settings.window().toNanos();
		long next = Long.MAX_VALUE;
		for (Held entry : new ArrayList<>(this.held.values())) {
			if (entry.endEpochNanos + window <= now) {
				release(entry);
				released.add(entry.root);
			}
			else {
				next = Math.min(next, entry.endEpochNanos + window);
			}
		}
		this.nextExpiryEpochNanos = next;
	}

	/**
	 * Release the request protected longest ago, for when the store has no other room;
	 * {@code null} if none.
	 */
	synchronized SpanRecord releaseOldest() {
		if (this.held.isEmpty()) {
			return null;
		}
		Held oldest = this.held.values().iterator().next();
		release(oldest);
		return oldest.root;
	}

	synchronized int size() {
		return this.held.size();
	}

	private void releaseIfUnheld(Held entry, List<SpanRecord> released) {
		if (!entry.slowest && entry.errorSlot == null && !entry.forced) {
			release(entry);
			released.add(entry.root);
		}
		else {
			entry.root.retainedAs(entry.reason());
		}
	}

	private void release(Held entry) {
		boolean wasHeld = this.held.remove(entry.root, entry);
		if (wasHeld) {
			this.heldSpans -= entry.spans;
		}
		if (entry.slowest) {
			List<Held> slowest = this.slowestByName.get(entry.nameKey);
			if (slowest != null) {
				slowest.remove(entry);
				if (slowest.isEmpty()) {
					this.slowestByName.remove(entry.nameKey);
				}
			}
			entry.slowest = false;
		}
		if (entry.errorSlot != null) {
			this.errors.remove(entry.errorSlot, entry);
			entry.errorSlot = null;
		}
		if (entry.forced) {
			entry.forced = false;
			this.forcedCount--;
		}
		entry.root.retainedAs(RetainedAs.RECENT);
		if (wasHeld) {
			this.onReleased.accept(entry.root);
		}
	}

	private String nameKey(String name) {
		String key = (name != null) ? name : "";
		return (this.slowestByName.containsKey(key) || this.slowestByName.size() < this.settings.maxNames()) ? key
				: OTHER;
	}

	private record ErrorSlot(String nameKey, long minute) {
	}

	private static final class Held {

		final SpanRecord root;

		final long durationNanos;

		final long endEpochNanos;

		/** Guarded by the {@link ProtectedRoots}' lock. */
		int spans;

		String nameKey;

		boolean slowest;

		ErrorSlot errorSlot;

		/** Asked for by its caller: kept until its window ends or the share is short. */
		boolean forced;

		Held(SpanRecord root, long durationNanos, long endEpochNanos, int spans) {
			this.root = root;
			this.durationNanos = durationNanos;
			this.endEpochNanos = endEpochNanos;
			this.spans = spans;
		}

		RetainedAs reason() {
			if (this.forced) {
				return RetainedAs.FORCED;
			}
			return this.slowest ? RetainedAs.SLOWEST : (this.errorSlot != null) ? RetainedAs.ERROR : RetainedAs.RECENT;
		}

	}

}
