package dev.spanprofile.lifecycle;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * whichever comes first.
 */
public final class CompletedRoots {

	private static final System.Logger logger = System.getLogger(CompletedRoots.class.getName());

	private final Map<SpanRecord, Boolean> pending = new ConcurrentHashMap<>();

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
			this.pending.put(root, Boolean.TRUE);
		}
	}

	/** Samples up to {@code upTo} are joined: roots that ended by then are complete. */
	public void completeUpTo(Watermark upTo) {
		for (SpanRecord root : this.pending.keySet()) {
			if (!root.inFlight() && upTo.covers(root.endEpochNanos())) {
				hand(root);
			}
		}
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

	private void hand(SpanRecord root) {
		// remove() decides the race between a completing cycle and an evicting thread:
		// only one gets the root.
		if (this.pending.remove(root) == null) {
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
