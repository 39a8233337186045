package dev.spanprofile.autoconfigure.otelagent;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.agent.bridge.AgentBridge;
import dev.spanprofile.autoconfigure.ActuatorRequestFilter;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.SpanProfileProperties;
import dev.spanprofile.tracking.ActivationRecorder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Profiles the spans of applications traced by the OpenTelemetry Java agent
 * ({@code -javaagent:}), which an application-side hook cannot see: the agent's
 * instrumentation changes the agent's own context, not the application's. spanprofile's
 * agent extension hooks the agent's context storage and tracer provider and reports
 * through the bridge on the bootstrap class path; this connects the profiler to it. Needs
 * no tracer in the application (no Micrometer Tracing).
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass({ AgentBridge.class, SpanProfiler.class })
@ConditionalOnBooleanProperty(name = "spanprofile.enabled", matchIfMissing = true)
@ConditionalOnBean(SpanProfiler.class)
@Conditional(SpanProfileOtelAgentAutoConfiguration.OnAgentExtensionCondition.class)
public final class SpanProfileOtelAgentAutoConfiguration {

	SpanProfileOtelAgentAutoConfiguration() {
	}

	@Bean
	AgentBridgeConnection spanProfileAgentBridgeConnection(SpanProfiler spanProfiler, SpanProfileProperties properties,
			Environment environment) {
		ActuatorRequestFilter actuatorRequests = properties.isProfileActuatorRequests() ? null
				: new ActuatorRequestFilter(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		return new AgentBridgeConnection(
				new AgentSpanReceiver(ActivationRecorder.global(), spanProfiler.spanLifecycle(),
						(spanId) -> spanProfiler.store().findTracked(spanId) != null, actuatorRequests));
	}

	/**
	 * Matches when spanprofile's extension put the bridge on the bootstrap class path.
	 */
	static final class OnAgentExtensionCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return OtelJavaAgent.detect().extensionLoaded()
					? ConditionOutcome
						.match("spanprofile-otel-agent-extension is loaded in the OpenTelemetry Java agent")
					: ConditionOutcome.noMatch("spanprofile-otel-agent-extension is not loaded");
		}

	}

}
