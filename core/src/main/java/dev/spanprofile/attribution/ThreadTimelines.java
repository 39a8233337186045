package dev.spanprofile.attribution;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Every thread's timeline, by Java thread id, kept until no sample can need it: a thread
 * that ended is forgotten once every sample up to its end is joined, or sooner once more
 * than {@link #MAX_ENDED_THREADS} ended threads wait for that. Collector thread only.
 */
final class ThreadTimelines {

	/**
	 * Ended threads whose timelines are kept for late samples at most. A virtual thread
	 * per request ends tens of thousands of threads in the 8 to 11 s their samples may
	 * lag; their timelines (about 440 bytes each) are held outside
	 * {@code spanprofile.max-memory}, so they are bounded here: about 22 MB. Past it the
	 * threads that ended first are forgotten early, and their late samples count as
	 * outside any span.
	 */
	static final int MAX_ENDED_THREADS = 50_000;

	private final Map<Long, ThreadTimeline> timelines = new HashMap<>();

	/**
	 * When each thread that ended did, on the monotonic clock, in the order they were
	 * reported.
	 */
	private final LinkedHashMap<Long, Long> endedThreads = new LinkedHashMap<>();

	private final int maxEndedThreads;

	/**
	 * A drain hands over one thread's points in a row: the last timeline spares a map
	 * lookup per point.
	 */
	private long lastThreadId;

	private ThreadTimeline lastTimeline;

	ThreadTimelines() {
		this(MAX_ENDED_THREADS);
	}

	ThreadTimelines(int maxEndedThreads) {
		this.maxEndedThreads = maxEndedThreads;
	}

	/** The thread's timeline, created on its first change point. */
	ThreadTimeline of(long threadId) {
		if (this.lastTimeline != null && threadId == this.lastThreadId) {
			return this.lastTimeline;
		}
		ThreadTimeline timeline = this.timelines.computeIfAbsent(threadId, id -> new ThreadTimeline());
		this.lastThreadId = threadId;
		this.lastTimeline = timeline;
		return timeline;
	}

	/** The thread's timeline, or {@code null} when none is kept. */
	ThreadTimeline find(long threadId) {
		return this.timelines.get(threadId);
	}

	void forEach(BiConsumer<Long, ThreadTimeline> action) {
		this.timelines.forEach(action);
	}

	/**
	 * The thread ended at {@code monotonicNanos}: its timeline goes once that is joined.
	 */
	void ended(long threadId, long monotonicNanos) {
		this.endedThreads.put(threadId, monotonicNanos);
		if (this.endedThreads.size() > this.maxEndedThreads) {
			Iterator<Long> first = this.endedThreads.keySet().iterator();
			long forgotten = first.next();
			first.remove();
			this.timelines.remove(forgotten);
			if (forgotten == this.lastThreadId) {
				this.lastTimeline = null;
			}
		}
	}

	/**
	 * All samples before {@code time} have been joined: drop change points no later
	 * sample can need, and the timelines of threads that ended before it.
	 */
	void forgetBefore(long time) {
		this.lastTimeline = null;
		for (Iterator<Map.Entry<Long, ThreadTimeline>> it = this.timelines.entrySet().iterator(); it.hasNext();) {
			Map.Entry<Long, ThreadTimeline> entry = it.next();
			Long endedAt = this.endedThreads.get(entry.getKey());
			if (endedAt != null && endedAt < time) {
				it.remove();
				this.endedThreads.remove(entry.getKey());
			}
			else {
				entry.getValue().forgetBefore(time);
			}
		}
	}

	/** Change points retained, all threads together. */
	int changePointCount() {
		int count = 0;
		for (ThreadTimeline timeline : this.timelines.values()) {
			count += timeline.size();
		}
		return count;
	}

	int size() {
		return this.timelines.size();
	}

}
