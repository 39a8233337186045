package dev.spanprofile.agent.extension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import dev.spanprofile.agent.bridge.AgentBridge;
import dev.spanprofile.agent.bridge.AgentSpanEvents;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extension's hooks as the agent runs them, here on an unrelocated OpenTelemetry:
 * what the context storage wrapper and the span processor report through the bridge, and
 * the jar of bridge classes put on the bootstrap class path.
 */
class AgentExtensionTests {

	private final RecordingEvents events = new RecordingEvents();

	private final ContextStorage storage = new ActivationReportingStorage(ContextStorage.defaultStorage());

	private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
		.addSpanProcessor(new SpanEventsProcessor())
		.build();

	private final Tracer tracer = this.tracerProvider.get("test");

	@AfterEach
	void disconnect() {
		AgentBridge.disconnect(this.events);
		this.tracerProvider.close();
	}

	@Test
	void everyAttachAndCloseReportsTheSpanThenActive() {
		AgentBridge.connect(this.events);
		Span request = this.tracer.spanBuilder("request").startSpan();
		Span child = this.tracer.spanBuilder("child").setParent(Context.root().with(request)).startSpan();
		this.events.log.clear();
		try (Scope outer = this.storage.attach(Context.root().with(request))) {
			try (Scope inner = this.storage.attach(Context.root().with(child))) {
				// Attaching what is already current changes nothing.
				try (Scope same = this.storage.attach(this.storage.current())) {
				}
			}
		}
		String requestId = request.getSpanContext().getSpanId();
		String childId = child.getSpanContext().getSpanId();
		assertThat(this.events.log).containsExactly("activated " + requestId, "activated " + childId,
				"activated " + requestId, "activated null");
	}

	@Test
	void aSpanTheSamplerDroppedIsReportedAsNone() {
		AgentBridge.connect(this.events);
		SpanContext unsampled = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
				TraceFlags.getDefault(), TraceState.getDefault());
		try (Scope scope = this.storage.attach(Context.root().with(Span.wrap(unsampled)))) {
		}
		assertThat(this.events.log).containsExactly("activated null", "activated null");
	}

	@Test
	void startsAndEndsCarryParentsNamesAndAttributes() {
		AgentBridge.connect(this.events);
		Span request = this.tracer.spanBuilder("GET").startSpan();
		Span child = this.tracer.spanBuilder("SELECT").setParent(Context.root().with(request)).startSpan();
		child.end();
		request.updateName("GET /alpha");
		request.setAttribute("url.path", "/alpha");
		request.setStatus(StatusCode.ERROR);
		request.end();
		String requestId = request.getSpanContext().getSpanId();
		String childId = child.getSpanContext().getSpanId();
		String traceId = request.getSpanContext().getTraceId();
		assertThat(this.events.log).containsExactly("started " + traceId + " " + requestId + " null false GET INTERNAL",
				"started " + traceId + " " + childId + " " + requestId + " true SELECT INTERNAL",
				"ended " + childId + " false SELECT null ok", "ended " + requestId + " true GET /alpha /alpha error");
	}

	@Test
	void nothingIsReportedWhileNoApplicationListens() {
		Span request = this.tracer.spanBuilder("request").startSpan();
		try (Scope scope = this.storage.attach(Context.root().with(request))) {
		}
		request.end();
		assertThat(this.events.log).isEmpty();
	}

	@Test
	void aFailingReceiverNeverReachesTheApplicationsThread() {
		AgentBridge.connect(new FailingEvents());
		Span request = this.tracer.spanBuilder("request").startSpan();
		try (Scope scope = this.storage.attach(Context.root().with(request))) {
			assertThat(Span.fromContext(this.storage.current())).isSameAs(request);
		}
		request.end();
		assertThat(this.storage.current()).isNull();
		AgentBridge.disconnect(AgentBridge.events());
	}

	@Test
	void theBridgeJarHoldsEveryClassOfTheBridgePackage() throws IOException {
		List<String> compiled = new ArrayList<>();
		Path classes = Path.of("target/classes");
		try (Stream<Path> files = Files.walk(classes.resolve("dev/spanprofile/agent/bridge"))) {
			// package-info holds no code: nothing loads it.
			files.filter((file) -> file.toString().endsWith(".class") && !file.endsWith("package-info.class"))
				.forEach((file) -> compiled.add(classes.relativize(file).toString().replace('\\', '/')));
		}
		assertThat(BootstrapInjection.BRIDGE_CLASS_FILES).containsExactlyInAnyOrderElementsOf(compiled);
		Path jar = BootstrapInjection.writeBridgeJar(getClass().getClassLoader());
		try (JarFile written = new JarFile(jar.toFile())) {
			List<String> entries = Collections.list(written.entries()).stream().map(JarEntry::getName).toList();
			assertThat(entries).containsExactlyInAnyOrderElementsOf(compiled);
			assertThat(written.getInputStream(written.getEntry(compiled.get(0))).readAllBytes())
				.isEqualTo(Files.readAllBytes(classes.resolve(compiled.get(0))));
		}
		finally {
			Files.delete(jar);
		}
	}

	@Test
	void outsideTheAgentTheBridgeIsNotOnTheBootstrapClassPath() {
		// What the extension checks before anything refers to the bridge: here the test's
		// class loader has it.
		assertThat(BootstrapInjection.isOnBootstrapClassPath()).isFalse();
		assertThat(AgentBridge.isOnBootstrapClassPath()).isFalse();
		assertThat(AgentHooks.install(null)).contains("its own copy");
	}

	@Test
	void withoutTheAgentsInstrumentationTheExtensionStepsAsideWithoutFailing() {
		// The agent's InstrumentationHolder is missing here: the bridge cannot be
		// injected, and no hook is registered.
		assertThat(BootstrapInjection.inject()).contains("InstrumentationHolder");
		new SpanProfileAgentExtension().customize(null);
		assertThat(BootstrapInjection.isOnBootstrapClassPath()).isFalse();
	}

	static final class RecordingEvents implements AgentSpanEvents {

		final List<String> log = Collections.synchronizedList(new ArrayList<>());

		@Override
		public void activated(String spanId) {
			this.log.add("activated " + spanId);
		}

		@Override
		public void started(String traceId, String spanId, String parentSpanId, boolean parentIsLocal, String name,
				String kind) {
			this.log.add("started " + traceId + " " + spanId + " " + parentSpanId + " " + parentIsLocal + " " + name
					+ " " + kind);
		}

		@Override
		public void ended(String spanId, boolean localRoot, String name, BooleanSupplier error, long durationNanos,
				Function<String, String> stringAttributes) {
			this.log.add("ended " + spanId + " " + localRoot + " " + name + " " + stringAttributes.apply("url.path")
					+ " " + (error.getAsBoolean() ? "error" : "ok"));
		}

	}

	static final class FailingEvents implements AgentSpanEvents {

		@Override
		public void activated(String spanId) {
			throw new IllegalStateException("activated");
		}

		@Override
		public void started(String traceId, String spanId, String parentSpanId, boolean parentIsLocal, String name,
				String kind) {
			throw new IllegalStateException("started");
		}

		@Override
		public void ended(String spanId, boolean localRoot, String name, BooleanSupplier error, long durationNanos,
				Function<String, String> stringAttributes) {
			throw new IllegalStateException("ended");
		}

	}

}
