package dev.spanprofile.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.Watermark;

/**
 * Local roots that ended and wait for their profile to be complete (every sample up to
 * their end joined). Each is handed to the listeners exactly once: when a collection
 * cycle has joined samples past its end (the store keeps a root it drops before that
 * awaiting its samples, within its bounds), or, if the store has no room to keep it
 * waiting, just before it goes, with the samples it has.
 * <p>
 * Bounded by the store: a root leaves on completion or when the store lets it go,
 * whichever comes first, and the collector forgets it at its next completion at the
 * latest.
 */
public final class CompletedRoots {

	private static final System.Logger logger = System.getLogger(CompletedRoots.class.getName());

	/**
	 * Written by request threads as roots end; a queue rather than a map, because a map's
	 * shared table and counter cost a request thread more than anything else spanprofile
	 * does for it, and a root needs no lookup: which of a completing cycle and an
	 * evicting thread hands it on is decided on the root itself.
	 */
	private final Queue<SpanRecord> ended = new ConcurrentLinkedQueue<>();

	/**
	 * Collector only: roots taken from {@link #ended}, not complete when last looked at.
	 */
	private List<SpanRecord> waiting = new ArrayList<>();

	private final List<Consumer<SpanRecord>> listeners = new CopyOnWriteArrayList<>();

	private volatile boolean listenerFailureLogged;

	public void addListener(Consumer<SpanRecord> listener) {
		this.listeners.add(listener);
	}

	/**
	 * A stored local root ends: queued just before the store marks it ended, so that a
	 * drop the moment after finds it here.
	 */
	public void ended(SpanRecord root) {
		if (!this.listeners.isEmpty()) {
			this.ended.add(root);
		}
	}

	/**
	 * Samples up to {@code upTo} are joined: roots that ended by then are complete.
	 * Collector thread only.
	 */
	public void completeUpTo(Watermark upTo) {
		for (SpanRecord root = this.ended.poll(); root != null; root = this.ended.poll()) {
			this.waiting.add(root);
		}
		List<SpanRecord> stillWaiting = new ArrayList<>();
		for (SpanRecord root : this.waiting) {
			if (root.isHandedOn()) {
				continue;
			}
			if (!root.inFlight() && upTo.covers(root.endEpochNanos())) {
				hand(root);
			}
			else {
				stillWaiting.add(root);
			}
		}
		this.waiting = stillWaiting;
	}

	/**
	 * The store drops {@code root}: its profile is as complete as it will get. One queued
	 * but not yet marked ended (dropped while running, in the instant its end is being
	 * recorded) is handed on by the next cycle, once its end is known.
	 */
	public void dropped(SpanRecord root) {
		if (!root.inFlight()) {
			hand(root);
		}
	}

	/** Roots ended and not yet handed on (for tests and diagnostics). */
	int waitingCount() {
		int count = 0;
		for (SpanRecord root : this.ended) {
			count += root.isHandedOn() ? 0 : 1;
		}
		for (SpanRecord root : this.waiting) {
			count += root.isHandedOn() ? 0 : 1;
		}
		return count;
	}

	private void hand(SpanRecord root) {
		if (!root.claimForHandingOn()) {
			return;
		}
		for (Consumer<SpanRecord> listener : this.listeners) {
			try {
				listener.accept(root);
			}
			catch (RuntimeException ex) {
				if (!this.listenerFailureLogged) {
					this.listenerFailureLogged = true;
					logger.log(System.Logger.Level.WARNING, "spanprofile: a completed-span listener failed", ex);
				}
			}
		}
	}

}
