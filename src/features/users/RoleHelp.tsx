// What the chosen role may do and what its organisation means, under the user form's role and
// organisation: read from the role matrix (schemas/roles.ts abilitiesOf) and the organisation
// rule (schemas/scope.ts), so that the form describes exactly what the server will allow.
import { Alert, Box, Typography } from '@mui/material';
import { abilitiesOf, can } from '../../../schemas/roles';
import { lacksOrganisation, NO_ORGANISATION, ORGANISATION_ROLES } from '../../../schemas/scope';
import type { Problem } from '../../components/entity';
import { useSay } from '../../lib/session';

/** The organisation rule as the form's cross-field rule: roles 3-7 need one (the server's
 * users.organisationRequired), said before sending. `withOrganisation`: the form holds one. */
export function organisationRule(values: Record<string, unknown>, withOrganisation: boolean): Record<string, Problem> {
  if (!withOrganisation) return {};
  const role = Number(values.role);
  const location = Number(values.location ?? NO_ORGANISATION);
  return lacksOrganisation({ role, location }) ? { location: { id: 'users.roleHelp.needsOrganisation' } } : {};
}

/** The organisation field is marked required (*) for the roles that need one (schemas/scope.ts
 * ORGANISATION_ROLES) and while no role is chosen; not for an administrator or a programme
 * supervisor, whom the form lets go without one. */
export function organisationRequired(values: Record<string, unknown>): Record<string, boolean> {
  const role = Number(values.role);
  return { location: !role || ORGANISATION_ROLES.includes(role) };
}

/** Which sentence says what an account of `role` at `location` sees, organisation-wise. */
function reachKey(role: number, location: number): string {
  if (role === 1) return 'users.roleHelp.reach.everything';
  if (can(role, 'stats.programme'))
    return location === NO_ORGANISATION ? 'users.roleHelp.reach.programme' : 'users.roleHelp.reach.programmeOrg';
  return location === NO_ORGANISATION ? 'users.roleHelp.reach.none' : 'users.roleHelp.reach.organisation';
}

export function RoleHelp({ role, location, showReach }: { role: unknown; location: unknown; showReach: boolean }) {
  const say = useSay();
  const chosen = Number(role);
  if (!chosen) return null;
  const where = Number(location ?? NO_ORGANISATION);
  const missing = showReach && lacksOrganisation({ role: chosen, location: where });
  return (
    <Alert severity={missing ? 'warning' : 'info'} data-testid="role-help" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <Typography component="h2" variant="subtitle2">
        {say('users.roleHelp.title', { role: say(`role.${chosen}`) })}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {abilitiesOf(chosen).map((ability) => (
          <li key={ability}>{say(`roleAbility.${ability}`)}</li>
        ))}
      </Box>
      {showReach && (
        <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="role-reach">
          {say(reachKey(chosen, where))}
        </Typography>
      )}
    </Alert>
  );
}
