package dev.spanprofile.otlp;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.upload.UploadQueue;
import io.opentelemetry.sdk.resources.Resource;

/**
 * Exports span-linked profiles over OTLP/HTTP: each local root whose profile is complete
 * hands its samples over (exactly once), and every export interval the samples handed
 * over since the last export become one {@code ExportProfilesServiceRequest}, queued for
 * upload.
 * <p>
 * Memory is bounded twice: samples waiting for the next export are capped by call-tree
 * nodes (the oldest spans go first, counted), and encoded requests waiting for the
 * receiver by the upload queue's capacity.
 */
public final class OtlpProfilesExporter implements Consumer<SpanRecord>, AutoCloseable {

	/** About 64 bytes a node: a few MB of samples waiting between two exports at most. */
	static final int MAX_PENDING_NODES = 100_000;

	private static final System.Logger logger = System.getLogger(OtlpProfilesExporter.class.getName());

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final OtlpSettings settings;

	private final RequestEncoder encoder;

	private final ArrayDeque<LinkedSamples> pending = new ArrayDeque<>();

	private int pendingNodes;

	private long periodStartEpochNanos = System.currentTimeMillis() * 1_000_000L;

	private final LongAdder droppedSpans = new LongAdder();

	private final LongAdder requests = new LongAdder();

	private final LongAdder requestBytes = new LongAdder();

	private final LongAdder buildCpuNanos = new LongAdder();

	private final LongAdder failedExports = new LongAdder();

	/**
	 * Whether the current stretch of failed exports was logged; the export thread's own.
	 */
	private boolean failureLogged;

	private final UploadQueue<byte[]> uploads;

	private final ScheduledExecutorService scheduler;

	/**
	 * @param settings where and how to export
	 * @param frames names of the frame ids in the samples
	 * @param intervalNanos time one cpu or wall sample stands for
	 * @param resource the application's OpenTelemetry resource
	 */
	public OtlpProfilesExporter(OtlpSettings settings, FrameTable frames, long intervalNanos, Resource resource) {
		this(settings, (batch, startEpochNanos, durationNanos) -> {
			ProfilesRequestBuilder builder = new ProfilesRequestBuilder(frames, intervalNanos);
			batch.forEach(builder::add);
			return builder.build(resource, startEpochNanos, durationNanos).toByteArray();
		});
	}

	OtlpProfilesExporter(OtlpSettings settings, RequestEncoder encoder) {
		this.settings = settings;
		this.encoder = encoder;
		OtlpHttpSender sender = new OtlpHttpSender(settings);
		this.uploads = new UploadQueue<>(sender, settings.queueCapacity(), settings.endpointForLogs(),
				"spanprofile-otlp-upload");
		sender.reportTo(this.uploads);
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "spanprofile-otlp-export");
			thread.setDaemon(true);
			return thread;
		});
		long everyMillis = settings.exportInterval().toMillis();
		this.scheduler.scheduleWithFixedDelay(this::exportSafely, everyMillis, everyMillis, TimeUnit.MILLISECONDS);
	}

	/** A local root's profile is complete: keep its samples for the next export. */
	@Override
	public void accept(SpanRecord root) {
		List<LinkedSamples> samples = new ArrayList<>();
		for (SampleKind kind : SampleKind.values()) {
			if (this.settings.linkToRoot()) {
				add(samples, root, kind, InclusiveSamples.of(root, kind));
			}
			else {
				addOwn(samples, root, kind);
			}
		}
		keep(samples);
	}

	/**
	 * Keep {@code samples} for the next export, dropping the oldest spans' beyond the
	 * bound.
	 */
	void keep(List<LinkedSamples> samples) {
		synchronized (this.pending) {
			for (LinkedSamples span : samples) {
				this.pending.addLast(span);
				this.pendingNodes += span.samples().nodeCount();
			}
			while (this.pendingNodes > MAX_PENDING_NODES && this.pending.size() > 1) {
				this.pendingNodes -= this.pending.pollFirst().samples().nodeCount();
				this.droppedSpans.increment();
			}
		}
	}

	private static void addOwn(List<LinkedSamples> samples, SpanRecord span, SampleKind kind) {
		add(samples, span, kind, span.ownSamples(kind));
		for (SpanRecord child : span.children()) {
			addOwn(samples, child, kind);
		}
	}

	private static void add(List<LinkedSamples> samples, SpanRecord span, SampleKind kind, StackTree tree) {
		if (tree.totalSamples() > 0) {
			samples.add(new LinkedSamples(span.traceId(), span.spanId(), kind, tree));
		}
	}

	private void exportSafely() {
		try {
			if (exportNow()) {
				// A request built; an empty period proves nothing.
				this.failureLogged = false;
			}
		}
		catch (RuntimeException | Error ex) {
			// Errors too (say, OutOfMemoryError on a huge batch): anything thrown out of
			// a scheduled task cancels every later run without a word. The batch is lost,
			// the next one is tried.
			this.failedExports.increment();
			if (!this.failureLogged) {
				this.failureLogged = true;
				logger.log(System.Logger.Level.WARNING, "spanprofile: building an OTLP profiles request failed; "
						+ "logged once until an export succeeds", ex);
			}
		}
	}

	/**
	 * Build one request of everything handed over since the last export and queue it;
	 * nothing when empty.
	 * @return whether a request was queued
	 */
	public boolean exportNow() {
		List<LinkedSamples> batch;
		long start;
		long now = System.currentTimeMillis() * 1_000_000L;
		synchronized (this.pending) {
			batch = new ArrayList<>(this.pending);
			this.pending.clear();
			this.pendingNodes = 0;
			start = this.periodStartEpochNanos;
			this.periodStartEpochNanos = now;
		}
		if (batch.isEmpty()) {
			return false;
		}
		long cpuBefore = THREADS.getCurrentThreadCpuTime();
		byte[] request = this.encoder.encode(batch, start, now - start);
		this.buildCpuNanos.add(Math.max(0, THREADS.getCurrentThreadCpuTime() - cpuBefore));
		this.requests.increment();
		this.requestBytes.add(request.length);
		this.uploads.add(request);
		return true;
	}

	/** Requests built so far. */
	public long requests() {
		return this.requests.sum();
	}

	/** Uncompressed bytes of the requests built so far. */
	public long requestBytes() {
		return this.requestBytes.sum();
	}

	/**
	 * CPU time spent building and encoding the requests so far (compression, done on
	 * upload, not included).
	 */
	public long buildCpuNanos() {
		return this.buildCpuNanos.sum();
	}

	/** Exports whose request could not be built: their samples are lost. */
	public long failedExports() {
		return this.failedExports.sum();
	}

	/** Spans whose samples were dropped before an export because too many waited. */
	public long droppedSpans() {
		return this.droppedSpans.sum();
	}

	/** The upload queue, for its counters. */
	public UploadQueue<byte[]> uploads() {
		return this.uploads;
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.uploads.stop();
	}

	/** Turns the samples of one export into the bytes of one request. */
	@FunctionalInterface
	interface RequestEncoder {

		byte[] encode(List<LinkedSamples> batch, long startEpochNanos, long durationNanos);

	}

}
