package dev.spanprofile;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.TimeBreakdownJson;
import dev.spanprofile.render.WaitCategory;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.PeerNames;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SocketWaits;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chatty request: round trips to a database 8 ms away each, none of them near the 20 ms
 * threshold of the other waits. With socket waits recorded from 1 ms (the default), the
 * request's breakdown holds the time the database held its answers, on the peer as the
 * application named it, and how many round trips it made. Real sockets, a real in-JVM
 * server that counts what it answered, real Flight Recorder events.
 */
class ShortSocketWaitsTest {

	private static final int ROUND_TRIPS = 12;

	private static final long HELD_MILLIS = 8;

	@Test
	void roundTripsShorterThanTheWaitThresholdCountOnTheNamedPeer() throws Exception {
		PeerNames peers = new PeerNames();
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null, SamplerSettings.DEFAULT_ALLOC_INTERVAL,
				SamplerSettings.DEFAULT_LOCK_THRESHOLD, Duration.ofMillis(20),
				new SocketWaits(SocketWaits.DEFAULT_THRESHOLD, peers));
		try (ProfilingHarness harness = new ProfilingHarness(sampler, true, 1000, EngineChoice.JFR,
				Duration.ofMillis(200), Function.identity());
				ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			String label = "in-JVM database at localhost:" + server.getLocalPort();
			peers.name("localhost", server.getLocalPort(), label);
			AtomicLong answered = new AtomicLong();
			AtomicLong heldNanos = new AtomicLong();
			Thread database = database(server, answered, heldNanos);
			Span span = harness.tracer.spanBuilder("GET /owners").setNoParent().startSpan();
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
				socket.setTcpNoDelay(true);
				DataOutputStream out = new DataOutputStream(socket.getOutputStream());
				DataInputStream in = new DataInputStream(socket.getInputStream());
				try (Scope scope = span.makeCurrent()) {
					byte[] answer = new byte[200];
					for (int query = 0; query < ROUND_TRIPS; query++) {
						out.writeInt(query);
						out.flush();
						in.readFully(answer);
					}
				}
				finally {
					span.end();
				}
			}
			database.join();
			harness.collect();

			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			TimeBreakdown breakdown = TimeBreakdown.of(record.durationNanos(MonotonicEpoch.nowEpochNanos()), -1, 0,
					record.ownSamples(SampleKind.WAIT), harness.profiler.store().frames());
			System.out.printf("server answered %d, held %.1f ms; request %.1f ms: %s%n", answered.get(),
					heldNanos.get() / 1e6, breakdown.durationNanos() / 1e6, breakdown.summary(CpuShare::millis));
			assertThat(answered.get()).isEqualTo(ROUND_TRIPS);

			WaitCategory sockets = breakdown.waits()
				.stream()
				.filter((category) -> category.name().equals("socket I/O"))
				.findFirst()
				.orElseThrow();
			long onPeer = sockets.on()
				.stream()
				.filter((detail) -> detail.detail().equals(label))
				.mapToLong(WaitCategory.Detail::nanos)
				.sum();
			// At least what the server held (the trips' own latency comes on top), at
			// most
			// the request's duration.
			assertThat((double) onPeer).as("socket waits on %s vs the server's hold", label)
				.isBetween(0.9 * heldNanos.get(), (double) breakdown.durationNanos());
			assertThat(breakdown.roundTrips()).hasSize(1);
			TimeBreakdown.RoundTrips trips = breakdown.roundTrips().get(0);
			assertThat(trips.peer()).isEqualTo(label);
			assertThat((double) trips.count()).as("round trips vs the server's count")
				.isBetween(0.9 * answered.get(), 1.1 * answered.get());
			assertThat(breakdown.roundTripsText(CpuShare::millis))
				.startsWith(trips.count() + " round trips to " + label);
			TimeBreakdownJson json = breakdown.json();
			assertThat(json.roundTrips()).singleElement()
				.satisfies((peer) -> assertThat(peer.count()).isEqualTo(trips.count()));
		}
	}

	/**
	 * Answers each 4-byte query with 200 bytes, 8 ms after it arrived; counts the answers
	 * and the time it held them.
	 */
	private static Thread database(ServerSocket server, AtomicLong answered, AtomicLong heldNanos) {
		Thread thread = new Thread(() -> {
			try (Socket client = server.accept()) {
				client.setTcpNoDelay(true);
				DataInputStream in = new DataInputStream(client.getInputStream());
				DataOutputStream out = new DataOutputStream(client.getOutputStream());
				for (int query = 0; query < ROUND_TRIPS; query++) {
					in.readInt();
					long received = System.nanoTime();
					Thread.sleep(HELD_MILLIS);
					out.write(new byte[200]);
					out.flush();
					heldNanos.addAndGet(System.nanoTime() - received);
					answered.incrementAndGet();
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
