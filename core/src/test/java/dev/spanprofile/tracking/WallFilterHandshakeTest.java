package dev.spanprofile.tracking;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handshake between a thread entering a span and a wall-clock filter being installed
 * at the same moment ({@link ActivationListeners#setThreadListener}): in every round,
 * either the thread hears of the new listener or the listener hears of the thread. Rounds
 * start both sides together, many times, so that a store-load reordering on either side
 * (the thread's flag written, then the listener read; the listener written, then the
 * flags read) would show as a round where both missed.
 */
class WallFilterHandshakeTest {

	private static final int ROUNDS = 200_000;

	/**
	 * On a loaded machine the spinning sides wait for each other's time slices: rounds
	 * stop here.
	 */
	private static final long MAX_NANOS = 20_000_000_000L;

	@Test
	void aThreadEnteringASpanWhileTheFilterIsInstalledIsNeverLeftOutOfIt() throws Exception {
		AtomicInteger round = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		AtomicBoolean finished = new AtomicBoolean();
		ThreadActivity[] activity = new ThreadActivity[1];
		ActivationListeners listeners = new ActivationListeners(() -> List.of(activity[0]).iterator());
		AtomicBoolean registered = new AtomicBoolean();
		int missed = 0;
		Thread entering = new Thread(() -> {
			activity[0] = new ThreadActivity(Thread.currentThread(), 8);
			done.set(0);
			for (int i = 1;; i++) {
				while (round.get() != i) {
					if (finished.get()) {
						return;
					}
					Thread.onSpinWait();
				}
				listeners.enteredOrLeft(activity[0], true);
				done.set(i);
			}
		});
		entering.start();
		while (activity[0] == null) {
			Thread.onSpinWait();
		}
		// Told by the entering thread itself or by the installer's look at the flags:
		// either registers the thread.
		SpanThreadListener filter = new SpanThreadListener() {
			@Override
			public void entered(Thread thread) {
				registered.set(true);
			}

			@Override
			public void left(Thread thread) {
			}
		};
		long deadline = System.nanoTime() + MAX_NANOS;
		int rounds = 0;
		for (int i = 1; i <= ROUNDS && System.nanoTime() < deadline; i++) {
			rounds = i;
			listeners.setThreadListener(null);
			activity[0].inSpan = false;
			registered.set(false);
			round.set(i);
			// The other thread sees the round start some time later: a varying pause lets
			// the two sides overlap.
			for (int spin = (i * 7) % 97; spin > 0; spin--) {
				Thread.onSpinWait();
			}
			listeners.setThreadListener(filter);
			while (done.get() != i) {
				Thread.onSpinWait();
			}
			if (!registered.get()) {
				missed++;
			}
		}
		finished.set(true);
		entering.join();
		// With the flag written plainly, 8 rounds of 200,000 missed.
		assertThat(rounds).as("rounds run").isGreaterThanOrEqualTo(20_000);
		assertThat(missed).as("rounds of %d in which neither side saw the other", rounds).isZero();
	}

}
