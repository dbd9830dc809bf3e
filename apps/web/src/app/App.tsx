import { BrowserRouter } from 'react-router';
import { ScreenErrorBoundary } from '../components/ScreenError';
import { Providers } from './providers';
import { AppRoutes } from './routes';

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <ScreenErrorBoundary fullScreen>
          <AppRoutes />
        </ScreenErrorBoundary>
      </BrowserRouter>
    </Providers>
  );
}
