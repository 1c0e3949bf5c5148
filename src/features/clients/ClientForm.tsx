// The client step form's view: one step per part of a client (identity, basic services, skills,
// social, security, business start, photo and documents) and a review; vertical on a phone. Its
// state and its save are the controller's (useClientForm).
import {
  Box,
  Card,
  CardContent,
  Step,
  StepButton,
  StepContent,
  StepLabel,
  Stepper,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useDisplayContext } from '../../components/entity';
import type { ExistingImage } from '../../components/images';
import { useSay } from '../../lib/session';
import { ClientFormAlerts, StepPanel } from './ClientFormParts';
import { PossibleDuplicates } from './PossibleDuplicates';
import { isSubPart, STEPS, type StepId } from './steps';
import { stepTitle, useClientForm, useStepInView, type ClientFormController, type ClientFormInput } from './useClientForm';

interface FormProps extends ClientFormInput {
  storedFiles: readonly ExistingImage[];
}

export function ClientForm({ storedFiles, ...input }: FormProps) {
  const ctx = useDisplayContext();
  const theme = useTheme();
  const vertical = useMediaQuery(theme.breakpoints.down('md'));
  const form = useClientForm(input);
  useStepInView(form.reg.step, vertical);
  const current = <StepPanel form={form} storedFiles={storedFiles} />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <ClientFormAlerts form={form} />
      <PossibleDuplicates rows={form.duplicates} ctx={ctx} />
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>
          {form.section ? current : <ClientStepper form={form} vertical={vertical} current={current} />}
        </CardContent>
      </Card>
    </Box>
  );
}

// Again once the new step has opened: the old step's fields leave at once and the new one's
// open in its transition, so at the first scroll the page below the title may be too short to
// bring it to the top (it stayed 300 px down on a phone). The step opens without an animation
// for the same reason.
const topOnceOpen = (s: StepId) => () => stepTitle(s)?.scrollIntoView({ block: 'start' });

/** On a phone the steps are a plain list with the current one open (Back and Next move, the
 * review's Edit buttons jump); on a wide screen each step is a tab. */
function ClientStepper({ form, vertical, current }: { form: ClientFormController; vertical: boolean; current: ReactNode }) {
  const say = useSay();
  const { reg, saving } = form;
  return (
    <>
      <Stepper
        activeStep={reg.step}
        orientation={vertical ? 'vertical' : 'horizontal'}
        nonLinear
        alternativeLabel={!vertical}
        sx={{ mb: vertical ? 0 : 3 }}
      >
        {STEPS.map((s, index) => {
          const optional = isSubPart(s) ? <Typography variant="caption">{say('clients.form.optional')}</Typography> : undefined;
          return (
            <Step key={s} completed={form.isDone(index)}>
              {vertical ? (
                <StepLabel
                  optional={optional}
                  id={`client-step-${s}`}
                  tabIndex={-1}
                  sx={{ scrollMarginTop: { xs: 64, sm: 72 }, outline: 'none' }}
                >
                  {say(`clients.steps.${s}`)}
                </StepLabel>
              ) : (
                <StepButton onClick={() => form.goTo(index)} disabled={saving || index > reg.reached} optional={optional}>
                  {say(`clients.steps.${s}`)}
                </StepButton>
              )}
              {vertical && (
                <StepContent
                  transitionDuration={0}
                  slotProps={{ transition: { onEntered: index === reg.step ? topOnceOpen(s) : undefined } }}
                >
                  {index === reg.step && current}
                </StepContent>
              )}
            </Step>
          );
        })}
      </Stepper>
      {!vertical && current}
    </>
  );
}
