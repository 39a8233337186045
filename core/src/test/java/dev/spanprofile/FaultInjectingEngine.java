package dev.spanprofile;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;

/**
 * Wraps the real engine and, while a fault is set, makes its collect cycles throw before
 * they dump: the samples stay in the profiler and arrive late, all at once, at the first
 * good cycle. Counts what the collector thread itself does, so a test can tell that it
 * survived.
 */
final class FaultInjectingEngine implements SamplingEngine {

	private final SamplingEngine delegate;

	private volatile Supplier<? extends Throwable> fault;

	private volatile long delayMillis;

	private final CountDownLatch delayedCollectStarted = new CountDownLatch(1);

	private final AtomicInteger failedByCollector = new AtomicInteger();

	private final AtomicInteger succeededByCollector = new AtomicInteger();

	FaultInjectingEngine(SamplingEngine delegate) {
		this.delegate = delegate;
	}

	void failWith(Supplier<? extends Throwable> fault) {
		this.fault = fault;
	}

	void heal() {
		this.fault = null;
	}

	/**
	 * Make every collect take this long, as a slow disk does; interrupted meanwhile, it
	 * throws what an interrupted file read throws.
	 */
	void delayCollects(long millis) {
		this.delayMillis = millis;
	}

	boolean awaitDelayedCollect() throws InterruptedException {
		return this.delayedCollectStarted.await(30, TimeUnit.SECONDS);
	}

	int failedByCollector() {
		return this.failedByCollector.get();
	}

	int succeededByCollector() {
		return this.succeededByCollector.get();
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	@Override
	public void start() throws SamplerUnavailableException {
		this.delegate.start();
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		boolean collector = Thread.currentThread().getName().equals("spanprofile-collector");
		if (this.delayMillis > 0) {
			this.delayedCollectStarted.countDown();
			try {
				Thread.sleep(this.delayMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ClosedByInterruptException();
			}
		}
		Supplier<? extends Throwable> current = this.fault;
		if (current != null) {
			if (collector) {
				this.failedByCollector.incrementAndGet();
			}
			throwUnchecked(current.get());
		}
		long upTo = this.delegate.collect(sink);
		if (collector) {
			this.succeededByCollector.incrementAndGet();
		}
		return upTo;
	}

	@Override
	public String activeEvent() {
		return this.delegate.activeEvent();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> void throwUnchecked(Throwable ex) throws T {
		throw (T) ex;
	}

}
