package dev.spanprofile.autoconfigure;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.autoconfigure.startup.ProfilingApplicationStartup;
import dev.spanprofile.autoconfigure.startup.SpanProfileStartupProperties;
import dev.spanprofile.sampling.PeerNames;
import dev.spanprofile.sampling.SamplingEngineFactory;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupSettings;
import dev.spanprofile.startup.StartupStep;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Profiles the application's start: starts the engine as soon as the environment is known
 * (before the context exists), records Spring's startup steps as steps with their own
 * samples, and hands that one engine to the context as its {@link SpanProfiler} bean,
 * which the auto-configuration then leaves alone. Off with
 * {@code spanprofile.startup.enabled=false} or {@code spanprofile.enabled=false}; the
 * engine then starts with the context as before.
 * <p>
 * When the start fails the engine stops with it: there is no context left to stop it.
 */
public class StartupProfilingRunListener implements SpringApplicationRunListener, Ordered {

	private static final Log logger = LogFactory.getLog(StartupProfilingRunListener.class);

	private static final String PROFILER_BEAN = "spanProfiler";

	private static final String ROOT_STEP = "spring.boot.application.start";

	private final SpringApplication application;

	private long startingEpochNanos;

	private long compilationMillisAtStart = -1;

	private long classesAtStart = -1;

	private SpanProfiler profiler;

	private PeerNames peerNames;

	private StartupRecording recording;

	private StartupStep runners;

	/**
	 * The shortest wait to record once the application is ready, where the waits are left
	 * out of the start ({@code spanprofile.startup.waits=false}); {@code null} when the
	 * engine records them from the start or not at all.
	 */
	private Duration waitsFromReady;

	/** The {@code spanprofile.*} properties the engine was made from. */
	private Map<String, Object> propertiesAtStart = Collections.emptyMap();

	public StartupProfilingRunListener(SpringApplication application, String[] args) {
		this.application = application;
	}

	@Override
	public int getOrder() {
		// After the listener that publishes Boot's events: the environment it prepares is
		// complete, logging set up, activation tracking installed.
		return 10;
	}

	@Override
	public void starting(ConfigurableBootstrapContext bootstrapContext) {
		this.startingEpochNanos = MonotonicEpoch.nowEpochNanos();
	}

	@Override
	public void environmentPrepared(ConfigurableBootstrapContext bootstrapContext,
			ConfigurableEnvironment environment) {
		if (!applies(environment)) {
			return;
		}
		// From here on: the management beans cost a start that is not profiled nothing.
		CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
		if (compilation != null && compilation.isCompilationTimeMonitoringSupported()) {
			this.compilationMillisAtStart = compilation.getTotalCompilationTime();
		}
		this.classesAtStart = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		try {
			Binder binder = Binder.get(environment);
			SpanProfileProperties properties = binder.bindOrCreate("spanprofile", SpanProfileProperties.class);
			SpanProfileStartupProperties startup = binder.bindOrCreate("spanprofile.startup",
					SpanProfileStartupProperties.class);
			this.propertiesAtStart = spanprofileProperties(environment);
			this.waitsFromReady = leaveWaitsToReady(properties, startup);
			PeerNames peerNames = new PeerNames();
			StartupSettings settings = startup.settings();
			SpanProfiler profiler = new SpanProfileAutoConfiguration().spanProfiler(properties, environment,
					noEngineFactory(), peerNames);
			if (!profiler.start()) {
				// Another engine owns this JVM (a cached test context) or none can run
				// here: recording the start would hand that engine's samples to steps
				// of this one. The context makes its own profiler and says why.
				logger.info("spanprofile: the start is not profiled: its engine did not start (another engine runs in "
						+ "this JVM, or none can run here)");
				return;
			}
			this.profiler = profiler;
			this.peerNames = peerNames;
			this.recording = profiler.recordStartup(settings, ROOT_STEP, this.startingEpochNanos);
			this.application.setApplicationStartup(
					ProfilingApplicationStartup.wrap(this.application.getApplicationStartup(), this.recording));
		}
		catch (RuntimeException ex) {
			// The context's own engine starts as before, without the start's profile.
			logger.warn("spanprofile: the start is not profiled: " + ex.getMessage(), ex);
			stop();
			this.recording = null;
			this.profiler = null;
		}
	}

	/**
	 * Leaves the waits out of {@code properties} unless they are to be recorded during
	 * the start: the JDK's Flight Recorder, which records them, is the largest part of
	 * what profiling costs a start (it instruments the JDK's I/O classes, which drops
	 * their compiled code, and parses its events every second).
	 * @return the threshold to record waits at once the application is ready, or
	 * {@code null}
	 */
	private static Duration leaveWaitsToReady(SpanProfileProperties properties, SpanProfileStartupProperties startup) {
		if (startup.isWaits() || !properties.getWaits().isEnabled()) {
			return null;
		}
		properties.getWaits().setEnabled(false);
		return properties.getWaits().getThreshold();
	}

	/**
	 * Where the auto-configuration would make the engine, and makes it itself (not for
	 * the Pyroscope export, whose engine is a bean).
	 */
	private static boolean applies(ConfigurableEnvironment environment) {
		return environment.getProperty("spanprofile.enabled", Boolean.class, true)
				&& environment.getProperty("spanprofile.startup.enabled", Boolean.class, true)
				&& !environment.getProperty("spanprofile.pyroscope.enabled", Boolean.class, false)
				&& ClassUtils.isPresent("io.opentelemetry.sdk.trace.SdkTracerProvider",
						StartupProfilingRunListener.class.getClassLoader());
	}

	@Override
	public void contextPrepared(ConfigurableApplicationContext context) {
		if (this.profiler != null && !settingsStillHold(context.getEnvironment())) {
			logger.info("spanprofile: the profiler's settings changed after the environment was prepared (an "
					+ "initializer added properties); the start is profiled up to here, the context makes its own "
					+ "profiler");
			finish();
			stop();
			this.recording = null;
			this.profiler = null;
		}
		if (this.profiler != null) {
			// The context's SpanProfiler and PeerNames beans: the auto-configuration's
			// conditional ones back off, so one engine profiles the start and what
			// follows.
			context.getBeanFactory().registerSingleton(PROFILER_BEAN, this.profiler);
			context.getBeanFactory().registerSingleton("spanProfilePeerNames", this.peerNames);
			context.addBeanFactoryPostProcessor(this::giveWayToOwnProfiler);
		}
	}

	/**
	 * Whether the engine made from the environment as it was is still the one the context
	 * would make: initializers (a test's context customizers) may have added properties
	 * since. A new sampling setting is applied to the running engine; a new dump interval
	 * is not (the collector keeps its pace: only how often samples are joined); anything
	 * else needs another engine.
	 */
	private boolean settingsStillHold(ConfigurableEnvironment environment) {
		if (spanprofileProperties(environment).equals(this.propertiesAtStart)) {
			return true;
		}
		Binder binder = Binder.get(environment);
		SpanProfileProperties properties = binder.bindOrCreate("spanprofile", SpanProfileProperties.class);
		if (this.waitsFromReady != null) {
			// Compared as the start runs it: waits only from when it is ready.
			this.waitsFromReady = leaveWaitsToReady(properties,
					binder.bindOrCreate("spanprofile.startup", SpanProfileStartupProperties.class));
			if (this.waitsFromReady == null) {
				return false;
			}
		}
		SpanProfilerSettings wanted = new SpanProfileAutoConfiguration()
			.spanProfiler(properties, environment, noEngineFactory(), this.peerNames)
			.settings();
		SpanProfilerSettings running = this.profiler.settings();
		if (!wanted.withSampler(running.sampler())
			.equals(new SpanProfilerSettings(running.sampler(), running.store(), wanted.dumpInterval(),
					running.slowSpanLog(), running.aggregate()))) {
			return false;
		}
		if (!wanted.sampler().equals(running.sampler())) {
			String refused = this.profiler.resample(wanted.sampler());
			if (refused != null) {
				logger
					.warn("spanprofile: sampling as configured could not start (" + refused + "), sampling as before");
			}
		}
		if (!wanted.dumpInterval().equals(running.dumpInterval())) {
			logger.info("spanprofile: spanprofile.dump-interval=" + wanted.dumpInterval() + " set after the start "
					+ "began; samples are joined every " + running.dumpInterval() + " (and whenever read)");
		}
		this.profiler.setExactCpuTime(properties.isExactCpuTime());
		this.profiler.setCoreWait(properties.isCoreWait());
		return true;
	}

	/** Every {@code spanprofile.*} property as the environment has it now. */
	private static Map<String, Object> spanprofileProperties(ConfigurableEnvironment environment) {
		return Binder.get(environment)
			.bind("spanprofile", Bindable.mapOf(String.class, Object.class))
			.orElseGet(Collections::emptyMap);
	}

	private static org.springframework.beans.factory.ObjectProvider<SamplingEngineFactory> noEngineFactory() {
		return new StaticListableBeanFactory().getBeanProvider(SamplingEngineFactory.class);
	}

	/**
	 * An application that defines a {@link SpanProfiler} bean of its own runs that one:
	 * the early engine stops before the context starts it, and the start's profile ends
	 * there.
	 */
	private void giveWayToOwnProfiler(ConfigurableListableBeanFactory beanFactory) {
		boolean ours = beanFactory.containsSingleton(PROFILER_BEAN)
				&& !beanFactory.containsBeanDefinition(PROFILER_BEAN)
				&& beanFactory.getBeanNamesForType(SpanProfiler.class, true, false).length == 1;
		if (!ours && this.recording != null) {
			logger.info("spanprofile: the application defines its own SpanProfiler bean; its start is not profiled");
			finish();
			stop();
			this.recording = null;
			if (beanFactory instanceof DefaultListableBeanFactory registry && registry.containsSingleton(PROFILER_BEAN)
					&& !registry.containsBeanDefinition(PROFILER_BEAN)) {
				registry.destroySingleton(PROFILER_BEAN);
			}
		}
	}

	@Override
	public void started(ConfigurableApplicationContext context, Duration timeTaken) {
		if (this.recording != null) {
			this.runners = this.recording.begin("spring.boot.application.runners");
		}
	}

	@Override
	public void ready(ConfigurableApplicationContext context, Duration timeTaken) {
		if (this.recording == null) {
			return;
		}
		if (this.runners != null) {
			this.recording.end(this.runners);
		}
		finish();
		if (context.getBeanProvider(SpanProfilerLifecycle.class).getIfAvailable() == null) {
			// The context does not run the engine (the auto-configuration was left out):
			// nobody would stop it.
			stop();
		}
		else if (this.waitsFromReady != null) {
			recordWaitsFromNow();
		}
	}

	private void recordWaitsFromNow() {
		String refused = this.profiler
			.resample(this.profiler.settings().sampler().withWaitThreshold(this.waitsFromReady));
		if (refused != null) {
			logger.warn("spanprofile: waits are not recorded: " + refused);
		}
	}

	@Override
	public void failed(ConfigurableApplicationContext context, Throwable exception) {
		if (this.recording != null) {
			finish();
			stop();
		}
	}

	private void finish() {
		long jitNanos = -1;
		CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
		if (this.compilationMillisAtStart >= 0 && compilation != null) {
			jitNanos = (compilation.getTotalCompilationTime() - this.compilationMillisAtStart) * 1_000_000;
		}
		ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();
		this.recording.finish(jitNanos, classLoading.getTotalLoadedClassCount() - this.classesAtStart);
	}

	private void stop() {
		if (this.profiler != null) {
			this.profiler.stop();
		}
	}

}
