package dev.spanprofile;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.aggregate.RequestsBreakdown;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.PeerNames;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SocketWaits;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.view.BreakdownDifferenceJson;
import dev.spanprofile.view.NameDiffJson;
import dev.spanprofile.view.NameDiffView;
import dev.spanprofile.view.NamesQuery;
import dev.spanprofile.view.SpanProfileViews;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A name's requests added up: typical requests make 2 round trips to a database in the
 * JVM that holds each answer 8 ms, slow ones 12. Their aggregate breakdown, folded as
 * each request completed, adds up to their total duration and holds the time the database
 * held its answers on the peer as named, with its round trips; the slow side's sentence
 * names the injected difference: about 10 more round trips to that peer. Real sockets, a
 * real engine, real Flight Recorder events, the threads' real CPU clocks.
 */
class AggregateBreakdownRunTest {

	private static final String NAME = "GET /owners";

	private static final int TYPICAL = 6;

	private static final int SLOW = 4;

	private static final int TYPICAL_TRIPS = 2;

	private static final int SLOW_TRIPS = 12;

	private static final long HELD_MILLIS = 8;

	@Test
	void slowRequestsAddedUpNameTheirExtraRoundTrips() throws Exception {
		PeerNames peers = new PeerNames();
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null, SamplerSettings.DEFAULT_ALLOC_INTERVAL,
				SamplerSettings.DEFAULT_LOCK_THRESHOLD, Duration.ofMillis(20),
				new SocketWaits(SocketWaits.DEFAULT_THRESHOLD, peers));
		try (ProfilingHarness harness = new ProfilingHarness(sampler, true, 1000, EngineChoice.JFR,
				Duration.ofMillis(200), Function.identity());
				ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress())) {
			String label = "in-JVM database at localhost:" + server.getLocalPort();
			peers.name("localhost", server.getLocalPort(), label);
			AtomicLong answered = new AtomicLong();
			AtomicLong heldNanos = new AtomicLong();
			Thread database = database(server, 1 + TYPICAL + SLOW, answered, heldNanos);
			// Classes loaded and code compiled under a name of its own: the first request
			// is no typical one.
			request(harness, "warm-up", server.getLocalPort(), TYPICAL_TRIPS);
			long[] durations = new long[TYPICAL + SLOW];
			for (int request = 0; request < TYPICAL + SLOW; request++) {
				// Slow ones in between, not all at the end.
				boolean slow = request % 3 == 2 || request == TYPICAL + SLOW - 1;
				durations[request] = request(harness, NAME, server.getLocalPort(), slow ? SLOW_TRIPS : TYPICAL_TRIPS);
			}
			database.join();
			long totalNanos = 0;
			for (long duration : durations) {
				totalNanos += duration;
			}
			Duration window = harness.profiler.settings().aggregate().window();
			RequestsBreakdown all = awaitFolded(harness, window, TYPICAL + SLOW);
			System.out.printf("server answered %d, held %.1f ms; %d requests %.1f ms: %s%n", answered.get(),
					heldNanos.get() / 1e6, all.requests(), all.durationNanos() / 1e6, all);

			int trips = TYPICAL * TYPICAL_TRIPS + SLOW * SLOW_TRIPS;
			assertThat(answered.get()).isEqualTo(trips);
			// The requests' spans' durations, added up by the aggregates.
			assertThat(all.durationNanos()).isEqualTo(totalNanos);
			assertThat(all.cpuNanos() + all.waitNanos() + all.coreWaitNanos() + all.shortWaitNanos()
					+ all.unaccountedNanos() - all.overlapNanos())
				.as("the parts add up to the duration")
				.isEqualTo(all.durationNanos());
			long onPeer = all.waits()
				.stream()
				.filter((waits) -> waits.kind() == WaitKind.SOCKET_READ && label.equals(waits.detail()))
				.mapToLong(RequestsBreakdown.Waits::nanos)
				.sum();
			long counted = all.waits()
				.stream()
				.filter((waits) -> waits.kind() == WaitKind.SOCKET_READ && label.equals(waits.detail()))
				.mapToLong(RequestsBreakdown.Waits::count)
				.sum();
			// At least what the server held (each trip's own latency comes on top), at
			// most
			// the requests' duration.
			assertThat((double) onPeer).as("socket waits on %s vs the server's hold", label)
				.isBetween(0.9 * heldNanos.get(), (double) totalNanos);
			assertThat((double) counted).as("round trips vs the server's count").isBetween(0.9 * trips, 1.1 * trips);
			// CPU clocks and the kernel's figures leave little of a request unexplained
			// here: the trips' own latency and the time before the first wait.
			assertThat((double) all.unaccountedNanos()).as("unaccounted").isLessThan(0.5 * totalNanos);

			SpanProfileViews views = new SpanProfileViews(harness.profiler, new FrameClassifier(List.of()));
			NameDiffView diff = (NameDiffView) views
				.names(NamesQuery.parse(null, NAME, "50", null, "typical", null, "wait", sampler, window));
			NameDiffJson json = diff.json();
			assertThat(json.slowSpans()).isEqualTo(SLOW);
			assertThat(json.typicalSpans()).isEqualTo(TYPICAL);
			assertThat(json.slowBreakdown().requests()).isEqualTo(SLOW);
			assertThat(json.slowBreakdown().roundTrips()).singleElement().satisfies((peer) -> {
				assertThat(peer.peer()).isEqualTo(label);
				assertThat(peer.perRequest()).isBetween(0.9 * SLOW_TRIPS, 1.1 * SLOW_TRIPS);
			});
			BreakdownDifferenceJson difference = json.difference();
			System.out.println(difference.summary());
			BreakdownDifferenceJson.Term first = difference.terms().get(0);
			assertThat(first.part()).isEqualTo("round trips");
			assertThat(first.peer()).isEqualTo(label);
			assertThat(first.moreCountPerRequest()).isBetween(0.9 * (SLOW_TRIPS - TYPICAL_TRIPS),
					1.1 * (SLOW_TRIPS - TYPICAL_TRIPS));
			// Each extra trip held 8 ms at the server.
			assertThat(first.moreMillisPerRequest())
				.isGreaterThanOrEqualTo(0.9 * HELD_MILLIS * (SLOW_TRIPS - TYPICAL_TRIPS))
				.isLessThanOrEqualTo(difference.moreMillisPerRequest());
			assertThat(difference.summary()).startsWith("slow requests take ")
				.contains(" more round trips to " + label);
		}
	}

	/** The profile of every request of the name, once all of them are folded. */
	private static RequestsBreakdown awaitFolded(ProfilingHarness harness, Duration window, int requests)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (true) {
			harness.collect();
			NameProfile profile = harness.profiler.aggregates()
				.profile(NAME, window, SampleKind.CPU, 0, Long.MAX_VALUE);
			if (profile != null && profile.breakdown().requests() == requests || System.nanoTime() > deadline) {
				return (profile != null) ? profile.breakdown() : RequestsBreakdown.NONE;
			}
			Thread.sleep(50);
		}
	}

	/** One request making {@code trips} round trips on a connection of its own. */
	private static long request(ProfilingHarness harness, String name, int port, int trips) throws Exception {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent(); Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.setTcpNoDelay(true);
			query(socket, trips);
		}
		finally {
			span.end();
		}
		SpanRecord record = harness.profiler.store().find(span.getSpanContext().getSpanId());
		return record.durationNanos(record.endEpochNanos());
	}

	private static void query(Socket socket, int trips) throws Exception {
		DataOutputStream out = new DataOutputStream(socket.getOutputStream());
		DataInputStream in = new DataInputStream(socket.getInputStream());
		byte[] answer = new byte[200];
		for (int query = 0; query < trips; query++) {
			out.writeInt(query);
			out.flush();
			in.readFully(answer);
		}
	}

	/**
	 * Answers each 4-byte query with 200 bytes, 8 ms after it arrived, on
	 * {@code connections} connections one after the other; counts the answers and the
	 * time it held them, but for the first connection's (the warm-up's).
	 */
	private static Thread database(ServerSocket server, int connections, AtomicLong answered, AtomicLong heldNanos) {
		Thread thread = new Thread(() -> {
			try {
				for (int connection = 0; connection < connections; connection++) {
					try (Socket client = server.accept()) {
						client.setTcpNoDelay(true);
						DataInputStream in = new DataInputStream(client.getInputStream());
						DataOutputStream out = new DataOutputStream(client.getOutputStream());
						while (true) {
							try {
								in.readInt();
							}
							catch (EOFException ex) {
								break;
							}
							long received = System.nanoTime();
							Thread.sleep(HELD_MILLIS);
							out.write(new byte[200]);
							out.flush();
							if (connection > 0) {
								heldNanos.addAndGet(System.nanoTime() - received);
								answered.incrementAndGet();
							}
						}
					}
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, "database");
		thread.start();
		return thread;
	}

}
