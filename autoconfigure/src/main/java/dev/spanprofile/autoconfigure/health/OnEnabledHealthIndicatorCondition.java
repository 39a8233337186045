package dev.spanprofile.autoconfigure.health;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code management.health.spanprofile.enabled}, defaulting to
 * {@code management.health.defaults.enabled}: what Boot's
 * {@code @ConditionalOnEnabledHealthIndicator} does, for the Boot 3 configuration, which
 * cannot name Boot 3's annotation (this artifact is compiled against Boot 4, where it
 * moved).
 */
class OnEnabledHealthIndicatorCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Boolean enabled = context.getEnvironment().getProperty("management.health.spanprofile.enabled", Boolean.class);
		if (enabled != null) {
			return new ConditionOutcome(enabled, "management.health.spanprofile.enabled is " + enabled);
		}
		boolean defaults = context.getEnvironment()
			.getProperty("management.health.defaults.enabled", Boolean.class, true);
		return new ConditionOutcome(defaults, "management.health.defaults.enabled is " + defaults);
	}

}
