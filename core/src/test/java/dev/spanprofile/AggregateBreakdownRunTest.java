package dev.spanprofile;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
import dev.spanprofile.view.NameListJson;
import dev.spanprofile.view.NameSummaryJson;
import dev.spanprofile.view.NameWaitsJson;
import dev.spanprofile.view.ProfileQuery;
import dev.spanprofile.view.ProfileView;
import dev.spanprofile.view.RequestVsTypicalJson;
import dev.spanprofile.view.SpanProfileJson;
import dev.spanprofile.view.NamesQuery;
import dev.spanprofile.view.SpanProfileViews;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A name's requests added up: typical requests make 2 round trips to a database in the
 * JVM that holds each answer 8 ms, slow ones 12. Their aggregate breakdown, folded as
 * each request completed, adds up to their total duration and holds the time the database
 * held its answers on the peer as named, with its round trips; the slow side's sentence
 * names the injected difference: about 10 more round trips to that peer. The names list
 * says the same from the same sums: that name spends most of its time waiting on that
 * peer, a name whose requests only compute next to none. Real sockets, a real engine,
 * real Flight Recorder events, the threads' real CPU clocks.
 */
class AggregateBreakdownRunTest {

	private static final String NAME = "GET /owners";

	private static final int TYPICAL = 6;

	private static final int SLOW = 4;

	private static final int TYPICAL_TRIPS = 2;

	private static final int SLOW_TRIPS = 12;

	private static final long HELD_MILLIS = 8;

	/** A name whose requests only compute. */
	private static final String BURN_NAME = "GET /report";

	private static final int BURNS = 4;

	private static final long BURN_CPU_MILLIS = 30;

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
			int[] tripsMade = new int[TYPICAL + SLOW];
			SpanRecord slowest = null;
			for (int request = 0; request < TYPICAL + SLOW; request++) {
				// Slow ones in between, not all at the end.
				boolean slow = request % 3 == 2 || request == TYPICAL + SLOW - 1;
				tripsMade[request] = slow ? SLOW_TRIPS : TYPICAL_TRIPS;
				SpanRecord record = request(harness, NAME, server.getLocalPort(), tripsMade[request]);
				durations[request] = record.durationNanos(record.endEpochNanos());
				if (slow && (slowest == null || durations[request] > slowest.durationNanos(slowest.endEpochNanos()))) {
					slowest = record;
				}
			}
			String burnt = null;
			for (int request = 0; request < BURNS; request++) {
				burnt = burn(harness, BURN_NAME, BURN_CPU_MILLIS);
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
			awaitFolded(harness, window, BURN_NAME, BURNS);
			namesListSaysWhereEachNamesTimeGoes(views, window, label, heldNanos.get(), totalNanos);
			requestPageSaysHowTheRequestDiffersFromATypicalOne(views, sampler, slowest, durations, tripsMade, label,
					burnt);
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
			// The terms add up to the difference of the mean durations (each rounded to
			// a microsecond), so the round trips' term is at most the difference and what
			// the other parts took back: typical requests may spend more elsewhere (one
			// ran while the collector or the JIT took the core), and then the round
			// trips' term exceeds the whole difference by that much.
			double termsAdded = difference.terms()
				.stream()
				.mapToDouble(BreakdownDifferenceJson.Term::moreMillisPerRequest)
				.sum();
			assertThat(termsAdded).as("the terms added up")
				.isCloseTo(difference.moreMillisPerRequest(), within(0.001 * (difference.terms().size() + 1)));
			double tookBack = -difference.terms()
				.stream()
				.skip(1)
				.mapToDouble(BreakdownDifferenceJson.Term::moreMillisPerRequest)
				.filter((millis) -> millis < 0)
				.sum();
			// Each extra trip held 8 ms at the server.
			assertThat(first.moreMillisPerRequest())
				.isGreaterThanOrEqualTo(0.9 * HELD_MILLIS * (SLOW_TRIPS - TYPICAL_TRIPS))
				.isLessThanOrEqualTo(difference.moreMillisPerRequest() + tookBack + 0.001 * difference.terms().size());
			// What the other parts took back is small beside the injected difference.
			assertThat(tookBack).as("the other parts' differences the other way")
				.isLessThan(0.2 * first.moreMillisPerRequest());
			assertThat(difference.summary()).startsWith("slow requests take ")
				.contains(" more round trips to " + label);
		}
	}

	/**
	 * The names list's Waiting figure, from the same sums: the database's name spends at
	 * least 90 % of the time the server held its answers waiting, on that peer, and the
	 * name that only computes next to nothing.
	 */
	private static void namesListSaysWhereEachNamesTimeGoes(SpanProfileViews views, Duration window, String label,
			long heldNanos, long totalNanos) {
		NameListJson list = views.nameList(window).json();
		NameSummaryJson owners = list.names()
			.stream()
			.filter((name) -> NAME.equals(name.name()))
			.findFirst()
			.orElseThrow();
		NameSummaryJson report = list.names()
			.stream()
			.filter((name) -> BURN_NAME.equals(name.name()))
			.findFirst()
			.orElseThrow();
		System.out.printf("names list: %s waits %s, core %s; %s waits %s, core %s%n", NAME, owners.waits(),
				owners.coreWait(), BURN_NAME, report.waits(), report.coreWait());
		double held = 100.0 * heldNanos / totalNanos;
		assertThat(owners.waits().percent()).as("%s's waiting share vs the server's hold %.1f %%", NAME, held)
			.isBetween(0.9 * held, 100.0);
		NameWaitsJson.Category first = owners.waits().on().get(0);
		assertThat(first.category()).isEqualTo(WaitKind.SOCKET_READ.category());
		assertThat(first.details().get(0).detail()).isEqualTo(label);
		assertThat(first.percent()).isGreaterThanOrEqualTo(0.9 * held);
		// Computing, not waiting: its short waits are mostly Flight Recorder's sampler
		// suspending the thread to walk its stack (0.3–8 % on a loaded 2-core machine on
		// JDK 17, 15.7 % once on JDK 25): far below the chatty name's share either way.
		assertThat(report.waits().percent()).as("%s's waiting share", BURN_NAME).isBetween(0.0, 25.0);
		if (owners.coreWait() != null) {
			// Beside the waits, never counted in them: the two stay within the duration.
			assertThat(owners.waits().percent() + owners.coreWait().percent()).isLessThanOrEqualTo(100.0);
			assertThat(owners.coreWait().requests()).isEqualTo(TYPICAL + SLOW);
		}
	}

	/**
	 * The slowest request's page compares it with a typical request of its name: the
	 * typical side is the name's shortest requests (below its p90's band), and the
	 * sentence opens on the round trips it made beyond theirs, each held 8 ms; the terms
	 * add up to the difference. A name with too few requests says so.
	 */
	private static void requestPageSaysHowTheRequestDiffersFromATypicalOne(SpanProfileViews views,
			SamplerSettings sampler, SpanRecord slowest, long[] durations, int[] tripsMade, String label,
			String burnt) {
		ProfileView page = views.profile(ProfileQuery.parse(slowest.spanId(), null, sampler));
		RequestVsTypicalJson versus = ((SpanProfileJson) page.json()).versusTypical();
		System.out.println(versus);
		long typical = versus.typicalRequests();
		// Below the p90's band: the typical requests at least, never the slowest.
		assertThat(typical).isBetween((long) TYPICAL, (long) (TYPICAL + SLOW - 1));
		Integer[] order = new Integer[durations.length];
		for (int i = 0; i < order.length; i++) {
			order[i] = i;
		}
		java.util.Arrays.sort(order, java.util.Comparator.comparingLong((Integer i) -> durations[i]));
		double typicalNanos = 0;
		double typicalTrips = 0;
		for (int i = 0; i < typical; i++) {
			typicalNanos += durations[order[i]];
			typicalTrips += tripsMade[order[i]];
		}
		typicalNanos /= typical;
		typicalTrips /= typical;
		double duration = slowest.durationNanos(slowest.endEpochNanos());
		assertThat(versus.typicalMillis()).isCloseTo(typicalNanos / 1e6, within(0.002));
		assertThat(versus.moreMillis()).isCloseTo((duration - typicalNanos) / 1e6, within(0.002));
		assertThat(versus.terms().stream().mapToDouble(BreakdownDifferenceJson.Term::moreMillisPerRequest).sum())
			.as("the terms add up to the difference")
			.isCloseTo(versus.moreMillis(), within(0.001 * versus.terms().size()));
		BreakdownDifferenceJson.Term first = versus.terms().get(0);
		double moreTrips = SLOW_TRIPS - typicalTrips;
		assertThat(first.part()).isEqualTo("round trips");
		assertThat(first.peer()).isEqualTo(label);
		assertThat(first.moreCountPerRequest()).isBetween(0.9 * moreTrips - 0.05, 1.1 * moreTrips + 0.05);
		assertThat(first.moreMillisPerRequest()).isGreaterThanOrEqualTo(0.9 * HELD_MILLIS * moreTrips);
		assertThat(versus.summary()).startsWith("this request took ")
			.contains(" more than a typical " + NAME + ": +")
			.contains(" more round trips to " + label);
		assertThat(page.html()).contains(versus.summary() + ".");

		RequestVsTypicalJson few = ((SpanProfileJson) views.profile(ProfileQuery.parse(burnt, null, sampler)).json())
			.versusTypical();
		assertThat(few.summary()).startsWith("too few typical requests of " + BURN_NAME);
		assertThat(few.typicalRequests()).isLessThan(BURNS);
		assertThat(few.terms()).isNull();
	}

	/** The profile of every request of the name, once all of them are folded. */
	private static RequestsBreakdown awaitFolded(ProfilingHarness harness, Duration window, int requests)
			throws InterruptedException {
		return awaitFolded(harness, window, NAME, requests);
	}

	/** The profile of every request of {@code name}, once all of them are folded. */
	private static RequestsBreakdown awaitFolded(ProfilingHarness harness, Duration window, String name, int requests)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (true) {
			harness.collect();
			NameProfile profile = harness.profiler.aggregates()
				.profile(name, window, SampleKind.CPU, 0, Long.MAX_VALUE);
			if (profile != null && profile.breakdown().requests() == requests || System.nanoTime() > deadline) {
				return (profile != null) ? profile.breakdown() : RequestsBreakdown.NONE;
			}
			Thread.sleep(50);
		}
	}

	/** One request making {@code trips} round trips on a connection of its own. */
	private static SpanRecord request(ProfilingHarness harness, String name, int port, int trips) throws Exception {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent(); Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.setTcpNoDelay(true);
			query(socket, trips);
		}
		finally {
			span.end();
		}
		return harness.profiler.store().find(span.getSpanContext().getSpanId());
	}

	/**
	 * One request that computes for {@code cpuMillis} of its thread's CPU time; its span
	 * id.
	 */
	private static String burn(ProfilingHarness harness, String name, long cpuMillis) {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent()) {
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			long until = threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
			long sink = 0;
			while (threads.getCurrentThreadCpuTime() < until) {
				for (int i = 0; i < 10_000; i++) {
					sink += Long.toString(sink + i).length();
				}
			}
			span.setAttribute("sink", sink);
		}
		finally {
			span.end();
		}
		return span.getSpanContext().getSpanId();
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
